/**
 * Every command an operator types answers `--help` with its usage and exit code 0, doing nothing
 * else: no server started, no database opened, no build.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const COMMANDS = [
  'start',
  'dev',
  'staff',
  'service-token',
  'lookup:import',
  'worker',
  'tenant',
  'keys',
];

describe('the command lines', () => {
  it.concurrent.each(COMMANDS)(
    'npm run %s -- --help prints its usage and exits 0',
    async (command) => {
      const { stdout } = await run('npm', ['run', '--silent', command, '--', '--help'], {
        cwd: ROOT,
        // No database to open: were --help to go further, it would fail rather than pass.
        env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
        timeout: 60_000,
      });
      const name = command === 'start' ? 'npm start' : `npm run ${command}`;
      expect(stdout.trim()).toMatch(new RegExp(`^Usage: ${name}\\b`));
    },
    90_000,
  );
});
