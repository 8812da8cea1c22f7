import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = mkdtempSync(path.join(tmpdir(), 'admission-secret-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const ROUNDS = 300;

/** One process that waits for `at`, then reads (or creates) ROUNDS secrets in turn, printing their digest. */
function readInChild(at: number): Promise<string> {
  const code = `
    const { secretFile, sha256 } = await import('./server/secrets.ts');
    while (Date.now() < ${at}) {}
    try {
      const secrets = [];
      for (let i = 0; i < ${ROUNDS}; i++) secrets.push(secretFile(${JSON.stringify(dataDir)}, 'race-' + i + '.key'));
      process.stdout.write(sha256(secrets.join()));
    }
    catch (error) { process.stdout.write('ERROR ' + error.message); }
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(out));
  });
}

describe('a secret file created by processes starting together', () => {
  it('gives every process the same full secret, never an empty file (several servers on one data directory)', async () => {
    const at = Date.now() + 4_000;
    const answers = await Promise.all(Array.from({ length: 8 }, () => readInChild(at)));
    expect(answers.filter((answer) => answer.startsWith('ERROR'))).toEqual([]);
    expect(new Set(answers).size).toBe(1);
    expect(readdirSync(dataDir).sort()).toEqual(
      Array.from({ length: ROUNDS }, (_, i) => `race-${i}.key`).sort(),
    );
  }, 60_000);
});
