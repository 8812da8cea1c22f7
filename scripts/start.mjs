#!/usr/bin/env node
// `npm start`: installs what is missing, builds the client when there is one, then runs the server
// (which migrates the database on start) on http://localhost:3000 (PORT to change).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureInstalled } from './ensureInstalled.mjs';

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

ensureInstalled();
if (existsSync('index.html') && existsSync('vite.config.ts'))
  run('npm', ['run', 'build', '--if-present']);

const server = spawnSync('node', ['--import', 'tsx', 'server/main.ts'], {
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
process.exit(server.status ?? 0);
