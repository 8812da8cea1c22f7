/**
 * A data key version retired while saves are sealed under it (D183): a server whose read of the
 * current version is stale seals a save under the old one; whether it lands before the retirement
 * (which then sweeps again) or after (the save finds the version gone, seals again under the new
 * one and saves once more), the applicant sees an ordinary save and every value opens afterwards.
 * Local objects likewise: one sealed under a version retired before it is renamed into place is
 * sealed again first (D189). Two `rotate --reencrypt` started together: one works, the other stops at once.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerVault, isSealed, keyVersionOf, vaultOf } from '../../server/crypto/answerVault';
import { storedVersions, TenantKeys } from '../../server/crypto/dataKeys';
import { masterKeys } from '../../server/crypto/masterKey';
import { reencryptTenant } from '../../server/atRest/reencryption';
import { runInTenant } from '../../server/db/tenantScope';
import { versionTag } from '../../server/application/applications';
import { LocalStorage } from '../../server/storage/local';
import { entryArgs } from './entryArgs';
import {
  databaseKinds,
  registeredClient,
  startServer,
  type Client,
  type TestServer,
} from './harness';

/** Saves released together with a retirement. */
const BURST_APPLICANTS = 16;

/** The applicant's answers as the server hands them back. */
async function answersOf(client: Client) {
  const profile = await client.get('/api/profile');
  expect(profile.status, profile.text).toBe(200);
  return profile.body.answer as Record<string, unknown>;
}

describe.each(databaseKinds)('a data key retired under saves in flight, on %s', (database) => {
  let server: TestServer;
  let tenantId: string;
  beforeAll(async () => {
    server = await startServer({ database });
    tenantId = server.built.context.config.defaultTenant;
  });
  afterAll(async () => server?.close());

  const db = () => server.built.database.db;
  // The server's clock (the harness's) stands still unless a test moves it: its read of the current
  // version (CURRENT_VERSION_TTL_MS) never expires, so it seals under the version it read first.

  /** `rotate --reencrypt` of the tenant, as the command runs it (no cache of the version). */
  const reencrypt = () => {
    const keys = new TenantKeys(db(), masterKeys(server.built.context.config), 0);
    const storage = new LocalStorage(server.dataDir, randomBytes(32), () => new Date(), keys);
    return reencryptTenant(db(), new AnswerVault(keys), storage, tenantId, { settleMs: 0 });
  };

  const versions = () => runInTenant(tenantId, () => storedVersions(db(), tenantId));

  /** The versions the applicant's sealed answers are under, as stored. */
  const sealedUnder = async (email: string) => {
    const { rows } = (await runInTenant(tenantId, () =>
      db().execute(sql`select a.answers from applications a
        join users u on u.id = a.user_id and u.tenant_id = a.tenant_id where u.email = ${email}`),
    )) as unknown as { rows: { answers: Record<string, unknown> }[] };
    return new Set(Object.values(rows[0]!.answers).filter(isSealed).map(keyVersionOf));
  };

  it('a save sealed under a version retired before it commits is sealed again under the new one', async () => {
    const email = 'stale@example.com';
    const client = await registeredClient(server, email);
    // The server reads the current version on this first save, and keeps it.
    const first = await client.put('/api/answer', { ssn: '111-11-1111' });
    expect(first.status).toBe(200);
    const [before] = await versions();
    expect(await reencrypt()).toBe(before! + 1);
    expect(await versions()).toEqual([before! + 1]);

    // The plain save (one statement), sealed under the retired version: saved all the same.
    const plain = await client.put('/api/answer', { ssn: '222-22-2222' });
    expect(plain.status, plain.text).toBe(200);
    expect(await answersOf(client)).toMatchObject({ ssn: '222-22-2222' });
    expect(await sealedUnder(email)).toEqual(new Set([before! + 1]));

    // The save with a base version (REQ-R-2), sealed under a version retired since.
    expect(await reencrypt()).toBe(before! + 2);
    const since = await client.request(
      'PUT',
      '/api/answer',
      { ssn: '333-33-3333' },
      { 'if-match': versionTag(plain.body.version as number) },
    );
    expect(since.status, since.text).toBe(200);
    expect(await answersOf(client)).toMatchObject({ ssn: '333-33-3333' });

    // Its transaction (a key of the save conflicts, the sealed one is taken), likewise.
    const base = since.body.version as number;
    expect((await client.put('/api/answer', { first_name: 'Other tab' })).status).toBe(200);
    expect(await reencrypt()).toBe(before! + 3);
    const conflict = await client.request(
      'PUT',
      '/api/answer',
      { first_name: 'This tab', ssn: '444-44-4444' },
      { 'if-match': versionTag(base) },
    );
    expect(conflict.status, conflict.text).toBe(409);
    expect(await answersOf(client)).toMatchObject({
      first_name: 'Other tab',
      ssn: '444-44-4444',
    });
    expect(await sealedUnder(email)).toEqual(new Set([before! + 3]));
  }, 120_000);

  it('a burst of saves released with a retirement loses none: every value opens afterwards', async () => {
    const clients: Client[] = [];
    for (let i = 0; i < BURST_APPLICANTS; i++)
      clients.push(await registeredClient(server, `burst${i}@example.com`));
    const ssn = (i: number) => `555-00-${String(i).padStart(4, '0')}`;
    const alien = (i: number) => `A${String(i).padStart(9, '0')}`;
    // Every applicant has a value under the version the server keeps reading.
    for (const [i, client] of clients.entries())
      expect((await client.put('/api/answer', { ssn: `old-${i}` })).status).toBe(200);
    const [before] = await versions();
    const saves = clients.flatMap((client, i) => [
      client.put('/api/answer', { ssn: ssn(i) }),
      client.put('/api/answer', { alien_registration_number: alien(i) }),
    ]);
    const [version, ...saved] = await Promise.all([reencrypt(), ...saves]);
    expect(version).toBe(before! + 1);
    for (const response of saved) expect(response.status, response.text).toBe(200);
    expect(await versions()).toEqual([before! + 1]);
    for (const [i, client] of clients.entries()) {
      expect(await answersOf(client)).toMatchObject({
        ssn: ssn(i),
        alien_registration_number: alien(i),
      });
      expect(await sealedUnder(`burst${i}@example.com`)).toEqual(new Set([before! + 1]));
    }
  }, 180_000);

  it('objects put while their version is retired are sealed again under the new one before they are placed', async () => {
    const config = server.built.context.config;
    // The server's own keyring: its read of the current version does not expire here.
    const stale = new LocalStorage(
      server.dataDir,
      randomBytes(32),
      () => new Date(),
      vaultOf({ db: db(), config }).keys,
    );
    const key = (name: string) => `converted/${tenantId}/race/${name}.bin`;
    const bytes = (name: string) => Buffer.from(`object ${name} `.repeat(5_000));
    await stale.put(key('first'), bytes('first'));
    const [before] = await versions();
    const names = Array.from({ length: BURST_APPLICANTS }, (_, i) => `burst${i}`);
    const [version] = await Promise.all([
      reencrypt(),
      ...names.map((name) => stale.put(key(name), bytes(name))),
    ]);
    expect(version).toBe(before! + 1);
    // After the retirement, the server still reads the old version first.
    await stale.put(key('after'), bytes('after'));
    // A keyring that only knows the stored versions opens every object.
    const fresh = new LocalStorage(
      server.dataDir,
      randomBytes(32),
      () => new Date(),
      new TenantKeys(db(), masterKeys(config), 0),
    );
    expect(await fresh.keysUnder(tenantId, version!)).toEqual([]);
    for (const name of ['first', ...names, 'after'])
      expect((await fresh.get(key(name)))?.equals(bytes(name)), name).toBe(true);
  }, 120_000);
});

// Two processes on one embedded database cannot be: PGlite admits one per data directory (D41).
describe.each(databaseKinds.filter((kind) => kind === 'postgres'))(
  'rotate --reencrypt twice at once, on %s',
  (database) => {
    let server: TestServer;
    let tenantId: string;
    beforeAll(async () => {
      server = await startServer({ database });
      tenantId = server.built.context.config.defaultTenant;
    });
    afterAll(async () => server?.close());
    const db = () => server.built.database.db;
    const versions = () => runInTenant(tenantId, () => storedVersions(db(), tenantId));

    it('two rotate --reencrypt started together: one makes the new versions, the other stops at once', async () => {
      const client = await registeredClient(server, 'twice@example.com');
      expect((await client.put('/api/answer', { ssn: '666-66-6666' })).status).toBe(200);
      const [before] = await versions();
      const config = server.built.context.config;
      const env = {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: server.dataDir,
        DATABASE_URL: server.databaseUrl ?? '',
        ...(config.masterKey ? { MASTER_KEY: config.masterKey } : {}),
      };
      const keysCli = () =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            [...entryArgs('server/cli/keys.ts'), 'rotate', '--reencrypt', '--pause', '500'],
            { env, stdio: ['ignore', 'pipe', 'pipe'] },
          );
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.on('exit', (code) => resolve({ code, out }));
        });
      const runs = await Promise.all([keysCli(), keysCli()]);
      const done = runs.filter((run) => run.code === 0);
      const stopped = runs.filter((run) => run.code !== 0);
      expect(done, runs.map((run) => run.out).join('\n---\n')).toHaveLength(1);
      expect(stopped[0]!.code).toBe(1);
      expect(stopped[0]!.out.trim()).toBe(
        'Another rotate --reencrypt is running on this database: this one stops and changed nothing; that one finishes the work.',
      );
      expect(done[0]!.out).toContain(`${tenantId}\tversion ${before! + 1}\tdone`);
      expect(await versions()).toEqual([before! + 1]);
      expect(await answersOf(client)).toMatchObject({ ssn: '666-66-6666' });
    }, 120_000);
  },
);
