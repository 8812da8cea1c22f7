/**
 * The embedded database's data directory is one process's at a time (D195): the lock names its
 * living holder, goes with its release or its process, and a lock whose process is gone (or whose
 * pid now belongs to another process) is taken over.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DataDirInUse, LOCK_FILE, lockDataDir } from '../../server/db/dataDirLock';

/** A node process that lives until killed. */
function living(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], {
    stdio: 'ignore',
  });
  return new Promise((resolve) => child.once('spawn', () => resolve(child)));
}

describe('the data directory lock', () => {
  let dir: string;
  const children: ChildProcess[] = [];
  const lockFile = () => path.join(dir, LOCK_FILE);
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'admission-lock-'));
  });
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await rm(lockFile(), { force: true });
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('is held once: a second open (here, in the same process) is refused until released', () => {
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(() => lockDataDir(dir)).toThrow(DataDirInUse);
    expect(() => lockDataDir(dir)).toThrow(
      `The data directory ${dir} is in use by another process (pid ${process.pid}): stop that process, or start with another DATA_DIR.`,
    );
    release();
    expect(existsSync(lockFile())).toBe(false);
    lockDataDir(dir)();
  });

  it('is refused while its process lives, and taken over once it is gone', async () => {
    const holder = await living();
    children.push(holder);
    await writeFile(lockFile(), JSON.stringify({ pid: holder.pid }));
    expect(() => lockDataDir(dir)).toThrow(`in use by another process (pid ${holder.pid})`);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid });
    release();
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'is taken over from a pid that another process has since (its start time differs)',
    async () => {
      const other = await living();
      children.push(other);
      await writeFile(lockFile(), JSON.stringify({ pid: other.pid, started: '1' }));
      lockDataDir(dir)();
    },
  );

  it('left by an earlier process of this pid, or unreadable, is taken over', async () => {
    await writeFile(lockFile(), JSON.stringify({ pid: process.pid }));
    lockDataDir(dir)();
    await writeFile(lockFile(), 'not a lock');
    lockDataDir(dir)();
    expect(existsSync(lockFile())).toBe(false);
  });
});
