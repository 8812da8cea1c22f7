/**
 * `npm run lookup:import` (D46) on the embedded database: bad rows are reported by line and
 * nothing is imported; a good file replaces the list; a running embedded server is not touched.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { lookupEntries, lookupLists } from '../../server/db/schema';
import { entryArgs } from './entryArgs';
import { firstStartedDataDir } from './serverProcess';

const run = promisify(execFile);

async function importCli(dataDir: string, port: number, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [...entryArgs('scripts/lookup-import.ts'), ...args],
      { env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), NODE_ENV: 'test' } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('lookup import CLI', () => {
  let dir: string;
  let dataDir: string;
  // A port nothing listens on: no server holds the data directory.
  const freePort = 1;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'lookup-cli-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('reports bad rows by line and imports nothing, then imports a good file', async () => {
    // Where a server's first start has made the database: the command never makes one (D195).
    dataDir = await firstStartedDataDir('lookup-cli-data-');
    const bad = path.join(dir, 'bad.csv');
    await writeFile(
      bad,
      'ceeb,name,city,state,zip\n123456,Albany Academy,Albany,NY,12208\n12,Short,Albany,NY,12208\n',
    );
    const failed = await importCli(dataDir, freePort, 'college_ceeb', bad);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Nothing was imported');
    expect(failed.stderr).toContain('line 3: ceeb: the CEEB code must be 4 to 6 digits');

    const good = path.join(dir, 'good.csv');
    await writeFile(good, 'ceeb,name,city,state,zip\n1234,Albany College,Albany,NY,12208\n');
    const done = await importCli(dataDir, freePort, 'college_ceeb', good);
    expect(done.stdout).toContain(
      'Imported 1 entries into the college_ceeb list of tenant "northfield"',
    );
    expect(done.stderr).toBe(`Done on the data directory ${dataDir}.\n`);
    expect(done.code).toBe(0);

    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db
        .select({ id: lookupEntries.id, text: lookupEntries.text })
        .from(lookupEntries)
        .where(
          and(eq(lookupEntries.tenantId, 'northfield'), eq(lookupEntries.category, 'college_ceeb')),
        );
      expect(rows).toEqual([{ id: '1234', text: 'Albany College' }]);
      const [list] = await database.db
        .select({ sample: lookupLists.sample, rowCount: lookupLists.rowCount })
        .from(lookupLists)
        .where(eq(lookupLists.category, 'college_ceeb'));
      expect(list).toEqual({ sample: false, rowCount: 1 });
    } finally {
      await database.close();
    }
  }, 240_000);

  it('refuses an unknown category, and a data directory a running server holds', async () => {
    const unknown = await importCli(dataDir, freePort, 'schools', 'x.csv');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown category "schools"');

    const server = http.createServer((_request, response) => response.end('{"status":"ok"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const file = path.join(dir, 'good.csv');
      const refused = await importCli(dataDir, port, 'college_ceeb', file);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('PGlite is single-process: stop the server');
    } finally {
      server.close();
    }
  }, 60_000);
});
