/**
 * A broken form is never published (D194): through `npm run tenant` and a running server, each
 * broken file of tests/fixtures/brokenTenantFiles.ts is refused by `publish` or `institution` and by
 * `check`, with its path in plain words, and nothing changes; a version that renames a key holding
 * saved answers is refused with how many applications hold it unless `--drop-keys` is given; an
 * identical file publishes nothing; `export --version N` exports that version, each file naming its
 * `$schema`; publishing and replacing the institution file are in the staff audit log.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../server/cli/tenant';
import { printed } from '../fixtures/printed';
import { configFromEnv, type ServerConfig } from '../../server/config';
import { BROKEN_FILES, brokenText, readTenantFile } from '../fixtures/brokenTenantFiles';
import { registeredClient, startServer, type TestServer } from './harness';
import { enrolledStaff } from './staffHelpers';

const RIVERSIDE = 'riverside.test';
const tenantFile = (file: string) => path.join(import.meta.dirname, '../../tenants', file);

/** Runs the command, collecting what it prints. */
async function run(argv: string[], config: ServerConfig) {
  const { result, out, err } = await printed(() => main(argv, config));
  if (typeof result !== 'number') throw result;
  return { code: result, out, err };
}

describe('npm run tenant checks every file before it changes anything', () => {
  let server: TestServer;
  let config: ServerConfig;
  let folder: string;
  /** Writes a file into the test's folder; its path. */
  const file = async (name: string, data: unknown) => {
    const at = path.join(folder, name);
    await writeFile(at, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
    return at;
  };

  beforeAll(async () => {
    server = await startServer();
    config = configFromEnv({
      NODE_ENV: 'test',
      DATA_DIR: server.dataDir,
      PORT: new URL(server.url).port,
    });
    folder = await mkdtemp(path.join(os.tmpdir(), 'admission-tenant-checks-'));
    const added = await run(
      [
        'add',
        'riverside',
        '--host',
        RIVERSIDE,
        '--institution',
        tenantFile('riverside/institution.json'),
        '--definition',
        tenantFile('riverside/definition.json'),
      ],
      config,
    );
    // Its one line on stderr names the server it went through (D195), and nothing else.
    expect(added.err.trim()).toMatch(
      /^Done through the server at http:\/\/[^ ]+ \(data directory [^)]+\)\.$/,
    );
  });
  afterAll(async () => {
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it.each(BROKEN_FILES)('refuses $name, with its path, in publish and in check', async (broken) => {
    const at = await file(`${broken.file}.json`, brokenText(broken));
    const command =
      broken.file === 'definition'
        ? ['publish', 'riverside', '--definition', at]
        : ['institution', 'riverside', '--institution', at];
    const refused = await run(command, config);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`${broken.path}: `);
    expect(refused.err).toContain(broken.says);
    const checked = await run(['check', at], config);
    expect(checked.code).toBe(1);
    expect(checked.err).toContain(`${at}: ${broken.path}: `);
    expect(checked.err).toContain(broken.says);
  });

  it('changed nothing for the files it refused', async () => {
    const tenant = server.built.tenants.get('riverside');
    expect(tenant?.versions).toEqual([1]);
    expect(tenant?.institution.alerts).toEqual(readTenantFile('riverside/institution.json').alerts);
    expect(tenant?.institution.config.colors.primary).toBe('#0b6e4f');
  });

  it('refuses to rename or drop a key that holds saved answers, saying how many hold it; --drop-keys publishes', async () => {
    const applicant = await registeredClient(server, 'held@example.com', undefined, RIVERSIDE);
    expect((await applicant.put('/api/answer', { part_time: 'Y', first_name: 'Ada' })).status).toBe(
      200,
    );
    const renamed = readTenantFile('riverside/definition.json');
    const partTime = renamed.pages[0].children[1].children[2];
    partTime.key = 'study_part_time';
    const at = await file('renamed.json', renamed);

    const refused = await run(['publish', 'riverside', '--definition', at], config);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      'definition: pages[0].children[1].children[2]: in version 1, 1 application holds an answer under "part_time" (1 not yet submitted), and this version stores "study_part_time" there instead (a rename)',
    );
    expect(refused.err).toContain('--drop-keys');
    // Its label too: `part_time_desc` holds "Yes".
    expect(refused.err).toContain('under "part_time_desc"');
    const checked = await run(['check', at, '--tenant', 'riverside'], config);
    expect(checked.code).toBe(1);
    expect(checked.err).toContain('1 application holds an answer under "part_time"');
    expect(server.built.tenants.get('riverside')?.versions).toEqual([1]);

    const dropped = await run(['publish', 'riverside', '--definition', at, '--drop-keys'], config);
    expect(dropped.code, dropped.err).toBe(0);
    expect(dropped.out).toMatch(/^2\nDropped: 1 application holds an answer under "part_time"/);
    expect(server.built.tenants.get('riverside')?.versions).toEqual([1, 2]);
    // The answer stays in the application's row (D145).
    expect(JSON.stringify((await applicant.get('/api/profile')).body)).toContain('"part_time":"Y"');
  });

  it('publishes no version for an identical file, and says so; check --tenant tells what a publish would do', async () => {
    const original = tenantFile('riverside/definition.json');
    expect((await run(['publish', 'riverside', '--definition', original], config)).out).toBe('3');
    const again = await run(['publish', 'riverside', '--definition', original], config);
    expect(again).toMatchObject({
      code: 0,
      out: 'Unchanged: the file equals version 3, so no version was published.',
    });
    expect(server.built.tenants.get('riverside')?.versions).toEqual([1, 2, 3]);

    const same = await run(['check', original, '--tenant', 'riverside'], config);
    expect(same.code).toBe(0);
    expect(same.out).toContain(
      'it equals version 3 of "riverside", so a publish would make no version',
    );
    const retitled = await file('retitled.json', {
      ...readTenantFile('riverside/definition.json'),
      title: 'Riverside Enrollment 2028',
    });
    const next = await run(['check', retitled, '--tenant', 'riverside'], config);
    expect(next.out).toContain('a publish would make version 4 of "riverside"');
    const institution = await run(['check', tenantFile('riverside/institution.json')], config);
    expect(institution).toMatchObject({
      code: 0,
      out: expect.stringContaining('no problems (institution file)'),
    });
    expect(server.built.tenants.get('riverside')?.versions).toEqual([1, 2, 3]);
  });

  it('exports the version asked for, each file naming its JSON Schema', async () => {
    const out = path.join(folder, 'export');
    const exported = await run(['export', 'riverside', out, '--version', '2'], config);
    expect(exported.code, exported.err).toBe(0);
    expect(exported.out).toContain('(version 2)');
    const definition = JSON.parse(await readFile(path.join(out, 'definition.json'), 'utf8'));
    const institution = JSON.parse(await readFile(path.join(out, 'institution.json'), 'utf8'));
    expect(definition.version).toBe(2);
    expect(JSON.stringify(definition)).toContain('"study_part_time"');
    const schemas = path.relative(out, path.resolve('tenants/schemas'));
    expect(definition.$schema).toBe(`${schemas}/definition.schema.json`);
    expect(institution.$schema).toBe(`${schemas}/institution.schema.json`);
    // What was exported is accepted as it is.
    expect((await run(['check', path.join(out, 'definition.json')], config)).code).toBe(0);
    const missing = await run(['export', 'riverside', out, '--version', '9'], config);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('no such version');
  });

  it('records publishing a form and replacing the institution file in the staff audit log', async () => {
    const recoloured = await file('recoloured.json', {
      ...readTenantFile('riverside/institution.json'),
      config: {
        ...readTenantFile('riverside/institution.json').config,
        colors: { primary: '#0B6E4F', secondary: '#3A3A3A', accent: '#F07167' },
      },
    });
    const replaced = await run(['institution', 'riverside', '--institution', recoloured], config);
    expect(replaced.code, replaced.err).toBe(0);
    expect(server.built.tenants.get('riverside')?.institution.config.colors.primary).toBe(
      '#0B6E4F',
    );

    const admin = await enrolledStaff(server, 'registrar@riverside.test', 'admin', RIVERSIDE);
    const published = await admin.client.get('/staff/api/audit?what=form.published');
    expect(published.status).toBe(200);
    const rows = published.body.rows as { actor: string; detail: string }[];
    expect(rows.map((row) => row.detail)).toEqual([
      'version 3',
      'version 2; dropped keys that held answers: 2',
      'version 1 (college added)',
    ]);
    expect(rows.every((row) => row.actor === 'cli')).toBe(true);
    const institution = await admin.client.get('/staff/api/audit?what=institution.replaced');
    expect((institution.body.rows as unknown[]).length).toBe(1);
  });
});
