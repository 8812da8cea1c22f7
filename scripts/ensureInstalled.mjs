// The packages a fresh clone lacks: `npm install` when node_modules is missing or older than the
// lockfile, so `npm start` and `npm test` each work as the first command typed (D203).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const INSTALLED = 'node_modules/.package-lock.json';

/** `includeDev`: the devDependencies too, whatever NODE_ENV says (a build is to be made). */
export function ensureInstalled({ includeDev = false } = {}) {
  const stale =
    !existsSync(INSTALLED) ||
    process.env.START_INSTALL === 'always' ||
    statSync('package-lock.json').mtimeMs > statSync(INSTALLED).mtimeMs;
  if (!stale) return;
  const args = ['install', '--no-audit', '--no-fund', ...(includeDev ? ['--include=dev'] : [])];
  const result = spawnSync('npm', args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
