#!/usr/bin/env node
// `node scripts/server.mjs <entry.ts> [args]` (`npm run worker`, `staff`, `service-token`,
// `lookup:import`): runs a server entry from its source through tsx where tsx is installed (so a
// change is never hidden by an older build), else from its bundle in dist/server (a production
// install without devDependencies, D141). The bundle is named after the source file
// (server/entries.ts).
import './requireNode.mjs';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { constants } from 'node:os';

const [entry, ...args] = process.argv.slice(2);
const bundle = `dist/server/${path.basename(entry, '.ts')}.js`;
const fromSource = existsSync('node_modules/tsx/package.json');
if (!fromSource && !existsSync(bundle)) {
  console.error(
    `${bundle} is not built and tsx is not installed: run \`npm ci && npm run build\` first (docs/operations.md).`,
  );
  process.exit(1);
}
const child = spawn(
  process.execPath,
  fromSource ? ['--import', 'tsx', entry, ...args] : [bundle, ...args],
  { stdio: 'inherit' },
);
// The entry handles its own stop (the worker finishes its job); this process only passes it on.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
