#!/usr/bin/env node
// `npm start`: installs what is missing, builds the client when there is one, then runs the server
// (which migrates the database on start) on http://localhost:3000 (PORT to change).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { ensureInstalled } from './ensureInstalled.mjs';

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log('Usage: npm start (no arguments; configured by the environment, see the README)');
  process.exit(0);
}

ensureInstalled();
if (existsSync('index.html') && existsSync('vite.config.ts'))
  run('npm', ['run', 'build', '--if-present']);

const server = spawn('node', ['--import', 'tsx', 'server/main.ts'], {
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
