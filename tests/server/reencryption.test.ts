/**
 * `npm run keys -- rotate --reencrypt` (D167): each tenant gets a new data key, every sealed answer
 * and object is sealed again under it in batches, and the old key is retired once nothing is under
 * it. Values sealed before versions existed open as the first version; a burst of saves racing the
 * batches loses nothing; killed (SIGKILL) midway and run again, it finishes without sealing again
 * what the stopped run had finished.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AnswerVault, isSealed, keyVersionOf } from '../../server/crypto/answerVault';
import { CURRENT_VERSION_TTL_MS, storedVersions, TenantKeys } from '../../server/crypto/dataKeys';
import { masterKeys } from '../../server/crypto/masterKey';
import { REENCRYPT_BATCH, reencryptTenant } from '../../server/atRest/reencryption';
import { openDatabase, type Database, type DatabaseHandle } from '../../server/db/client';
import { applications, users } from '../../server/db/schema';
import { runInTenant } from '../../server/db/tenantScope';
import { LocalStorage } from '../../server/storage/local';
import { DEFAULT_TENANT_SEED, ensureTenant } from '../../server/tenants';
import { databaseKinds, openTestDatabase } from './harness';
import { entryArgs } from './entryArgs';

const TENANTS = ['recrypt-a', 'recrypt-b'];
/** More than one batch per tenant, so a run can be stopped between two. */
const APPLICANTS = REENCRYPT_BATCH + 10;
const SENSITIVE = new Set(['ssn']);
const DOCUMENT = Buffer.from('a scanned passport');
const masterKey = randomBytes(24).toString('base64');
const ssnOf = (i: number) => `900-00-${String(i).padStart(4, '0')}`;

/** The vault and storage of a process (a server, or the test checking what is stored). */
function processOn(db: Database, dataDir: string, ttlMs?: number) {
  const keys = new TenantKeys(
    db,
    masterKeys({ masterKey, masterKeyPrevious: undefined, dataDir }),
    ttlMs,
  );
  const storage = new LocalStorage(dataDir, randomBytes(32), () => new Date(), keys);
  return { keys, vault: new AnswerVault(keys), storage };
}

/** Applicants of each tenant with a sealed SSN as today's schema stored it (no key version). */
async function seed(db: Database, dataDir: string): Promise<Map<string, string[]>> {
  const { vault, storage } = processOn(db, dataDir);
  const owners = new Map<string, string[]>();
  for (const tenantId of TENANTS) {
    await ensureTenant(db, { ...DEFAULT_TENANT_SEED, id: tenantId, hosts: [`${tenantId}.test`] });
    await runInTenant(tenantId, async () => {
      const ids: string[] = [];
      for (let i = 0; i < APPLICANTS; i++) {
        const [user] = await db
          .insert(users)
          .values({
            tenantId,
            email: `a${i}@${tenantId}.test`,
            passwordHash: 'x',
            createdAt: new Date(),
          })
          .returning({ id: users.id });
        const userId = user!.id;
        const sealed = await vault.seal({ tenantId, userId }, SENSITIVE, {
          ssn: ssnOf(i),
          city: 'Lyon',
        });
        // A value sealed before D167 names no version.
        const { keyVersion: _, ...unversioned } = sealed.ssn as Record<string, unknown>;
        await db.insert(applications).values({
          tenantId,
          userId,
          answers: { ...sealed, ssn: unversioned },
          updatedAt: new Date(),
        });
        ids.push(userId);
      }
      await storage.put(`${tenantId}/${ids[0]}/q/f`, DOCUMENT, 'image/png');
      owners.set(tenantId, ids);
    });
  }
  return owners;
}

/** Every answer and object opens; the versions the answers are under. */
async function check(db: Database, dataDir: string, owners: Map<string, string[]>) {
  const { vault, storage } = processOn(db, dataDir);
  const versions = new Set<number>();
  for (const [tenantId, ids] of owners)
    await runInTenant(tenantId, async () => {
      const rows = await db
        .select()
        .from(applications)
        .where(sql`${applications.tenantId} = ${tenantId}`);
      expect(rows).toHaveLength(ids.length);
      for (const row of rows) {
        const i = ids.indexOf(row.userId);
        const opened = await vault.open({ tenantId, userId: row.userId }, row.answers);
        expect(opened.ssn).toBe(row.answers.saved ? opened.saved : ssnOf(i));
        expect(opened.city).toBe('Lyon');
        if (isSealed(row.answers.ssn)) versions.add(keyVersionOf(row.answers.ssn));
      }
      expect((await storage.get(`${tenantId}/${ids[0]}/q/f`))?.equals(DOCUMENT)).toBe(true);
    });
  return versions;
}

const versionsOf = (db: Database, tenantId: string) =>
  runInTenant(tenantId, () => storedVersions(db, tenantId));

/** When the tenant's key of `version` was made, in milliseconds since the epoch. */
const keyMadeAt = (db: Database, tenantId: string, version: number) =>
  runInTenant(tenantId, async () => {
    const { rows } = (await db.execute(sql`select extract(epoch from created_at) * 1000 as ms
      from tenant_data_keys where tenant_id = ${tenantId} and version = ${version}`)) as unknown as {
      rows: { ms: string | number }[];
    };
    return Number(rows[0]?.ms);
  });

describe.each(databaseKinds)('rotate --reencrypt on %s', (database) => {
  const open = async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'reencrypt-'));
    let url: string | undefined;
    let drop = async () => undefined as void;
    let handle: DatabaseHandle;
    if (database === 'pglite') handle = await openDatabase({ dataDir });
    else ({ handle, url, drop } = await openTestDatabase('postgres'));
    const done = async () => {
      await handle.close().catch(() => undefined);
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    };
    return { dataDir, url, handle, done };
  };

  it('seals every answer and object under a new key while a burst of saves races it, then retires the old key', async () => {
    const { dataDir, handle, done } = await open();
    const db = handle.db;
    const owners = await seed(db, dataDir);
    expect(await check(db, dataDir, owners)).toEqual(new Set([1]));
    // A server whose cache of the current version outlives the new key's making by a little.
    const server = processOn(db, dataDir, 200);
    const [tenantId] = TENANTS as [string];
    const ids = owners.get(tenantId)!;
    const save = async (i: number) => {
      const userId = ids[i % ids.length]!;
      const value = `saved-${i}`;
      const answers = await server.vault.seal({ tenantId, userId }, SENSITIVE, {
        ssn: value,
        saved: value,
      });
      // The plain save's merge (server/application/answerStatements.ts), in one statement.
      await db.execute(sql`update applications set answers = answers || ${JSON.stringify(answers)}::jsonb
        where tenant_id = ${tenantId} and user_id = ${userId}::uuid`);
      return { userId, value };
    };
    const run = processOn(db, dataDir, 0);
    const [, ...saved] = await runInTenant(tenantId, () =>
      Promise.all([
        reencryptTenant(db, run.vault, run.storage, tenantId, { pauseMs: 20, settleMs: 500 }),
        ...Array.from({ length: 40 }, (_, i) => save(i)),
      ]),
    );
    await reencryptTenant(db, run.vault, run.storage, TENANTS[1]!, { settleMs: 0 });
    // The last save of each applicant is what is stored, and opens.
    const last = new Map(saved.map((s) => [s.userId, s.value]));
    await runInTenant(tenantId, async () => {
      for (const [userId, value] of last) {
        const [row] = await db
          .select()
          .from(applications)
          .where(
            sql`${applications.tenantId} = ${tenantId} and ${applications.userId} = ${userId}::uuid`,
          );
        expect(await server.vault.open({ tenantId, userId }, row!.answers)).toMatchObject({
          ssn: value,
          saved: value,
        });
      }
    });
    expect(await check(db, dataDir, owners)).toEqual(new Set([2]));
    for (const id of TENANTS) expect(await versionsOf(db, id)).toEqual([2]);
    // The retired key opens nothing any more.
    await runInTenant(tenantId, () =>
      expect(processOn(db, dataDir).keys.keyAt(tenantId, 1)).rejects.toThrow(/retired/),
    );
    await done();
  }, 300_000);

  it('killed (SIGKILL) midway leaves every value readable; run again, it finishes without redoing a tenant; the next run starts anew', async () => {
    const { dataDir, url, handle, done } = await open();
    const owners = await seed(handle.db, dataDir);
    if (database === 'pglite') await handle.close();
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      MASTER_KEY: masterKey,
      DATABASE_URL: url ?? '',
    };
    const keysCli = (args: string[], killOn?: string) =>
      new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [...entryArgs('server/cli/keys.ts'), ...args], {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (killOn && out.includes(killOn)) child.kill('SIGKILL');
        });
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('exit', (code, signal) => resolve({ code, signal, out }));
      });

    const [first, second] = TENANTS as [string, string];
    // Killed after the first tenant is done, on the second tenant's first batch.
    const killed = await keysCli(
      ['rotate', '--reencrypt', '--pause', '1000'],
      `${second}\tversion 2\t${REENCRYPT_BATCH} application(s) re-encrypted`,
    );
    expect(killed.signal, killed.out).toBe('SIGKILL');
    expect(killed.out).toContain(`${first}\tversion 2\tdone`);
    const versionsNow = async (expected: Set<number>) => {
      const reopened = database === 'pglite' ? await openDatabase({ dataDir }) : handle;
      expect(await check(reopened.db, dataDir, owners)).toEqual(expected);
      const versions = [
        await versionsOf(reopened.db, first),
        await versionsOf(reopened.db, second),
      ];
      if (database === 'pglite') await reopened.close();
      return versions;
    };
    // Midway: answers under both versions, both keys of the second tenant stored, everything opens.
    expect(await versionsNow(new Set([1, 2]))).toEqual([[2], [2, 1]]);

    // Run again, it finishes the second tenant and leaves the first under the key it was given.
    const finished = await keysCli(['rotate', '--reencrypt']);
    expect(finished.code, finished.out).toBe(0);
    expect(finished.out).toContain(`${first}\tversion 2\tdone by the run this one resumes`);
    expect(finished.out).not.toContain(`${first}\tversion 3`);
    expect(finished.out).toContain(`${second}\tversion 2\tretired data key version(s) 1`);
    expect(finished.out).toContain(`${second}\tversion 2\tdone`);
    expect(await versionsNow(new Set([2]))).toEqual([[2], [2]]);

    // A run after a finished one gives every tenant a new key again.
    const next = await keysCli(['rotate', '--reencrypt']);
    expect(next.code, next.out).toBe(0);
    expect(next.out).toContain(`${first}\tversion 3\tdone`);
    expect(await versionsNow(new Set([3]))).toEqual([[3], [3]]);
    // The run made both tenants' keys before re-encrypting either (D192): the wait for servers to
    // follow (2 × CURRENT_VERSION_TTL_MS from a key's making) passed once, not once per tenant.
    const reopened = database === 'pglite' ? await openDatabase({ dataDir }) : handle;
    const made: number[] = [];
    for (const id of TENANTS) made.push(await keyMadeAt(reopened.db, id, 3));
    if (database === 'pglite') await reopened.close();
    expect(Math.abs(made[1]! - made[0]!)).toBeLessThan(CURRENT_VERSION_TTL_MS);

    for (const [args, message] of [
      [
        ['rotate', '--reencrypt', '--pause', 'soon'],
        '--pause takes a whole number of milliseconds',
      ],
      [['rotate', '--re-encrypt'], 'Unknown option: --re-encrypt'],
      [['status', '--reencrypt'], 'status takes no option'],
      [['rotate', 'now'], 'Unexpected argument: now'],
    ] as const) {
      const refused = await keysCli([...args]);
      expect(refused.code, refused.out).toBe(2);
      expect(refused.out).toContain(message);
    }
    await done();
  }, 600_000);
});
