#!/usr/bin/env node
// The start command of README.md. The server and the applicant app arrive with issues 3 and 4;
// until then this says so plainly instead of pretending to serve anything.
console.log(
  'Not yet: the server and the applicant app are not built yet. The form runtime and the definition are ready; run `npm test` to check them.',
);
