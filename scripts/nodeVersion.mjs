// Which Node.js the product runs on (D200): the maintained LTS lines, 22 (from 22.12) and 24. Node 20
// is past its end of life but still runs it, with a warning, because the machines this project is
// built and tested on ship it; anything older stops with one sentence instead of a stack trace.

/** The supported lines, for messages and the README. */
export const SUPPORTED_LINES = 'Node.js 22 (22.12 or newer) or 24, the maintained LTS lines';

/** The oldest Node.js the product still starts on: below it, ES modules the packages need fail. */
const OLDEST = [20, 19];

/** `{ fatal }` for a Node too old to run the product, `{ warning }` for one past its support, or `{}`. */
export function nodeVersionVerdict(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  const atLeast = ([M, m]) => major > M || (major === M && minor >= m);
  if (!atLeast(OLDEST))
    return {
      fatal: `This is Node.js ${version}, which cannot run this product: install ${SUPPORTED_LINES}, then run the command again.`,
    };
  if (major === 20)
    return {
      warning: `Node.js ${version} reached its end of life on 2026-04-30: it still runs this product, but install ${SUPPORTED_LINES}.`,
    };
  const supported = (major === 22 && minor >= 12) || (major >= 24 && major % 2 === 0);
  if (!supported)
    return {
      warning: `Node.js ${version} is not a maintained LTS line: it should work, but use ${SUPPORTED_LINES}.`,
    };
  return {};
}

/** Stops the process on a Node too old, warns on one past its support; the entry scripts call it first. */
export function requireSupportedNode(version = process.versions.node) {
  const { fatal, warning } = nodeVersionVerdict(version);
  if (fatal) {
    console.error(fatal);
    process.exit(1);
  }
  if (warning && !process.env.NODE_VERSION_WARNED) {
    console.warn(warning);
    // Child processes of the same command (the server, the worker, Vitest) do not say it again.
    process.env.NODE_VERSION_WARNED = '1';
  }
}
