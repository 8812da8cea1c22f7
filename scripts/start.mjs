#!/usr/bin/env node
// `npm start`: installs what is missing, builds (the client when there is one, and the server) where
// the build tools are installed, then runs the built server (which migrates the database on start)
// on http://localhost:3000 (PORT to change). Where the devDependencies were pruned after
// `npm run build` (docs/operations.md, D141), it runs that build as it is.
import './requireNode.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { ensureInstalled } from './ensureInstalled.mjs';

const SERVER = 'dist/server/main.js';
/** What `npm run build` runs on (devDependencies, absent from a production install). */
const BUILD_TOOLS = ['vite', 'tsx', 'esbuild'];

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log('Usage: npm start (no arguments; configured by the environment, see the README)');
  process.exit(0);
}

// Nothing built yet: the build tools are needed, even under NODE_ENV=production (where npm would
// leave devDependencies out).
ensureInstalled({ includeDev: !existsSync(SERVER) });
if (BUILD_TOOLS.every((tool) => existsSync(`node_modules/${tool}/package.json`)))
  run('npm', ['run', existsSync('index.html') ? 'build' : 'build:server']);
else if (!existsSync(SERVER)) {
  console.error(
    'npm start: nothing is built and the build tools are not installed: run `npm ci && npm run build` first (docs/operations.md).',
  );
  process.exit(1);
}

const server = spawn('node', [SERVER], {
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
// A stop sent to this process reaches the server, which stops its worker and exits within its
// bound; this process then exits with it, never before.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'])
  process.on(signal, () => server.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal));
// npm runs this under `sh -c`, which dies of a SIGTERM sent to `npm start` (a deploy's stop) without
// passing it on: under npm, a parent that goes away is a stop too.
if (process.env.npm_lifecycle_event === 'start') {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    server.kill('SIGTERM');
  }, 200);
  watch.unref();
}
server.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
