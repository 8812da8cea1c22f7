/**
 * `npm run tenant` (D145): on the database when no server runs, through the running server when one
 * does; a bad file is answered with its problems and a non-zero exit, and nothing changes.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RETENTION } from '../../definitions/config';
import { main } from '../../server/cli/tenant';
import { printed } from '../fixtures/printed';
import { configFromEnv, type ServerConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import { DEFAULT_TENANT_SEED, ensureTenant } from '../../server/tenants';
import { startServer, type TestServer } from './harness';

const tenantFile = (file: string) =>
  fileURLToPath(new URL(`../../tenants/${file}`, import.meta.url));

/** Runs the command, collecting what it prints. */
async function run(argv: string[], config: ServerConfig) {
  const { result, out, err } = await printed(() => main(argv, config));
  if (typeof result !== 'number') throw result;
  return { code: result, out, err };
}

describe('npm run tenant without a running server', () => {
  let dataDir: string;
  let config: ServerConfig;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-tenant-cli-'));
    config = configFromEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '1' });
    // The database a server's first start makes: the commands never make one (D195).
    const database = await openDatabase({ dataDir });
    await ensureTenant(database.db, DEFAULT_TENANT_SEED);
    await database.close();
  }, 180_000);
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));
  afterEach(() => vi.restoreAllMocks());

  it('answers --help with its usage and exit 0, and a wrong call with exit 2', async () => {
    const help = await run(['--help'], config);
    expect(help.code).toBe(0);
    expect(help.out).toContain('npm run tenant -- add <id>');
    expect((await run(['frobnicate'], config)).code).toBe(2);
  }, 60_000);

  it('adds, lists, publishes and exports a college on the database', async () => {
    const added = await run(
      [
        'add',
        'riverside',
        '--host',
        'riverside.localhost,enroll.riverside.test',
        '--institution',
        tenantFile('riverside/institution.json'),
        '--definition',
        tenantFile('riverside/definition.json'),
      ],
      config,
    );
    expect(added.err).toBe(
      `Done on the data directory ${dataDir} (no server answered at http://127.0.0.1:1).`,
    );
    expect(added.code).toBe(0);

    const listed = await run(['list'], config);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^northfield\tNorthfield College\t.*version 1/m);
    expect(listed.out).toMatch(
      /^riverside\tRiverside Community College\triverside\.localhost,enroll\.riverside\.test\tversion 1/m,
    );

    // A new version needs a changed file: an identical one publishes none (tenantChecks.test.ts).
    const retitled = path.join(dataDir, 'retitled.json');
    await writeFile(
      retitled,
      JSON.stringify({
        ...JSON.parse(await readFile(tenantFile('riverside/definition.json'), 'utf8')),
        title: 'Riverside Enrollment, Fall 2027',
      }),
    );
    const published = await run(['publish', 'riverside', '--definition', retitled], config);
    expect(published).toMatchObject({ code: 0, out: '2' });

    const folder = path.join(dataDir, 'export');
    expect((await run(['export', 'riverside', folder], config)).code).toBe(0);
    const institution = JSON.parse(await readFile(path.join(folder, 'institution.json'), 'utf8'));
    const original = JSON.parse(await readFile(tenantFile('riverside/institution.json'), 'utf8'));
    // The export holds the file as added, with the retention windows in effect spelled out.
    expect(original.config.retention).toBeUndefined();
    expect({ ...institution, $schema: undefined }).toEqual({
      ...original,
      $schema: undefined,
      config: { ...original.config, retention: DEFAULT_RETENTION },
    });
    const definition = JSON.parse(await readFile(path.join(folder, 'definition.json'), 'utf8'));
    expect(definition.id).toBe('riverside-enrollment');
    expect(definition.version).toBe(2);
  }, 180_000);

  it('refuses a bad file with the path of each problem and exit 1, and changes nothing', async () => {
    const bad = path.join(dataDir, 'bad-institution.json');
    const original = JSON.parse(await readFile(tenantFile('riverside/institution.json'), 'utf8'));
    await writeFile(
      bad,
      JSON.stringify({ ...original, offer: { heading: '', items: [] }, alerts: [{ id: 'x' }] }),
    );
    const refused = await run(
      [
        'add',
        'lakeside',
        '--host',
        'lakeside.test',
        '--institution',
        bad,
        '--definition',
        tenantFile('riverside/definition.json'),
      ],
      config,
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('institution: offer.heading');
    expect(refused.err).toContain('institution: offer.items');
    expect(refused.err).toContain('institution: alerts[0].start');

    const notJson = path.join(dataDir, 'broken.json');
    await writeFile(notJson, '{ "id": ');
    const broken = await run(['publish', 'riverside', '--definition', notJson], config);
    expect(broken.code).toBe(1);
    expect(broken.err).toContain('not JSON');

    const listed = await run(['list'], config);
    expect(listed.out).not.toContain('lakeside');
    expect(listed.out).toMatch(/^riverside\t.*version 2/m);
  }, 180_000);
});

describe('npm run tenant with a running server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it('publishes through the server, which serves the new version at once', async () => {
    const config = configFromEnv({
      NODE_ENV: 'test',
      DATA_DIR: server.dataDir,
      PORT: new URL(server.url).port,
    });
    const retitled = path.join(server.dataDir, 'retitled.json');
    await writeFile(
      retitled,
      JSON.stringify({
        ...JSON.parse(await readFile(tenantFile('northfield/definition.json'), 'utf8')),
        title: 'Northfield College Application 2028',
      }),
    );
    const published = await run(['publish', 'northfield', '--definition', retitled], config);
    expect(published).toMatchObject({ code: 0, out: '2' });
    expect(server.built.tenants.get('northfield')?.definitionVersion).toBe(2);
  });
});
