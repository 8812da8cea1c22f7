// The packages a fresh clone lacks: `npm install` when node_modules is missing or older than the
// lockfile, so `npm start` and `npm test` each work as the first command typed (issue 14).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const INSTALLED = 'node_modules/.package-lock.json';

export function ensureInstalled() {
  const stale =
    !existsSync(INSTALLED) ||
    process.env.START_INSTALL === 'always' ||
    statSync('package-lock.json').mtimeMs > statSync(INSTALLED).mtimeMs;
  if (!stale) return;
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
