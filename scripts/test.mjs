#!/usr/bin/env node
// `npm test`: installs what is missing (packages; Debian's Chromium and the PDF's fonts when run as
// root, as .ci/chromium.sh does), then runs every suite with Vitest. Without root, or where the
// install fails, the browser suites run on the Chromium inside @sparticuz/chromium.
import './requireNode.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { ensureInstalled } from './ensureInstalled.mjs';

// Debian's Chromium downloads while npm installs the packages: both wait on the network, neither
// needs the other (D203).
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const browserInstalled =
  isRoot && !process.env.CHROMIUM_PATH
    ? new Promise((resolve) =>
        spawn('bash', ['.ci/chromium.sh'], { stdio: 'inherit' })
          .on('exit', (code) => resolve(code))
          .on('error', () => resolve(1)),
      )
    : Promise.resolve(0);

ensureInstalled();

if ((await browserInstalled) !== 0)
  console.warn('npm test: could not install Debian Chromium; using the bundled one');

const vitest = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
process.exit(vitest.status ?? 1);
