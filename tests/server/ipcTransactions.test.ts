/**
 * Transactions of the job worker on the embedded PGlite (server/db/ipc.ts): the worker's statements
 * run in the process that owns the data directory, and a transaction the worker opens is held there.
 * Its effects are all or nothing, the owner's own statements never run inside it, and a worker that
 * dies or holds one too long leaves nothing locked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serveDatabaseOverIpc } from '../../server/db/ipc';

const LIMIT_MS = 500;

describe('worker transactions over IPC on PGlite', () => {
  let pglite: PGlite;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    pglite = await PGlite.create();
    await pglite.exec('create table ipc_probe (value text not null)');
  });
  beforeEach(async () => {
    await pglite.exec('delete from ipc_probe');
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await pglite.close();
  });

  const values = async () =>
    (await pglite.query<{ value: string }>('select value from ipc_probe order by value')).rows.map(
      (row) => row.value,
    );

  /** Starts the fixture worker on `scenario`; resolves with each report it sends, in order. */
  function worker(scenario: string) {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'tests/server/fixtures/ipcWorker.ts'],
      {
        env: { ...process.env, IPC_SCENARIO: scenario },
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    children.push(child);
    serveDatabaseOverIpc(child, pglite, LIMIT_MS);
    const reports: Record<string, unknown>[] = [];
    child.on('message', (message: { type?: string }) => {
      if (message.type === 'fixture') reports.push(message);
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    return { child, reports, exited };
  }

  it('commits what the callback wrote and returns its result', async () => {
    const { reports } = worker('commit');
    await expect.poll(() => reports.length, { timeout: 60_000 }).toBe(1);
    expect(reports[0]).toMatchObject({ returned: 1 });
    expect(await values()).toEqual(['committed']);
  });

  it('rolls back when the callback throws, and the owner never sees the row', async () => {
    const { reports } = worker('rollback');
    // The owner's statements in a burst while the worker's transaction may be open: none of them
    // runs inside it (PGlite runs one transaction at a time, the worker's included).
    const seen: string[][] = [];
    while (reports.length === 0) {
      seen.push(...(await Promise.all(Array.from({ length: 20 }, () => values()))));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(reports[0]).toMatchObject({ error: 'the callback failed' });
    expect(seen.flat()).toEqual([]);
    expect(await values()).toEqual([]);
  }, 60_000);

  it('rolls back the transaction of a worker that dies, and the owner goes on', async () => {
    const { child, reports, exited } = worker('exit');
    await expect.poll(() => reports.length, { timeout: 60_000 }).toBe(1);
    child.kill('SIGKILL');
    await exited;
    expect(await values()).toEqual([]);
  }, 60_000);

  it('rolls back a transaction held past the limit; the worker is told', async () => {
    const { reports } = worker('hold');
    await expect.poll(() => reports.length, { timeout: 60_000 }).toBe(2);
    expect(reports[1]).toMatchObject({ error: 'the transaction is no longer open' });
    expect(await values()).toEqual([]);
  }, 60_000);
});
