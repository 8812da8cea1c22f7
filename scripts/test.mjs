#!/usr/bin/env node
// `npm test`: installs what is missing (packages; Debian's Chromium and the PDF's fonts when run as
// root, as .ci/chromium.sh does), then runs every suite with Vitest. Without root, or where the
// install fails, the browser suites run on the Chromium inside @sparticuz/chromium.
import { spawnSync } from 'node:child_process';
import { ensureInstalled } from './ensureInstalled.mjs';

ensureInstalled();

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && !process.env.CHROMIUM_PATH) {
  const browser = spawnSync('bash', ['.ci/chromium.sh'], { stdio: 'inherit' });
  if (browser.status !== 0)
    console.warn('npm test: could not install Debian Chromium; using the bundled one');
}

const vitest = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
process.exit(vitest.status ?? 1);
