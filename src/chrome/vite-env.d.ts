/// <reference types="vite/client" />
// Types for `*.module.css` imports (and `import.meta.env`); harmless if another file references them too.
