#!/usr/bin/env node
// `npm run dev`: the API server in watch mode on :3000 and Vite on :5173 with the API behind it.
import './requireNode.mjs';
import { spawn } from 'node:child_process';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log('Usage: npm run dev (no arguments): the API on :3000 in watch mode, Vite on :5173');
  process.exit(0);
}

const children = [
  spawn('npx', ['tsx', 'watch', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: '3000' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
