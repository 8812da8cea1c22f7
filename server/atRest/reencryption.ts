/**
 * Re-encryption under a new data key (D167): the tenant gets a data key of a new version, which
 * seals every new value at once (running servers follow within CURRENT_VERSION_TTL_MS), then the
 * values under older versions are sealed again under it, a small batch per transaction, and the old
 * versions are retired (deleted) only once nothing is left under them (deleted first, then checked,
 * in one transaction that holds saves back, D183, D189). A batch locks its rows and
 * rewrites only the values it read under an old version, so a save waiting on the lock lands after
 * it and wins. Stopped at any point, every value is under a version still stored; run again, the
 * tenant's newest key is kept and the work finishes, and the tenants the stopped run had finished are
 * left as they are (`key_reencryption_runs`).
 */
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../db/client';
import { keyReencryptionRuns, tenantDataKeys } from '../db/schema';
import { runInTenant } from '../db/tenantScope';
import { LocalStorage } from '../storage/local';
import type { ObjectStorage } from '../storage/storage';
import { isSealed, keyVersionOf, openOne, sealOne, type AnswerVault } from '../crypto/answerVault';
import { CURRENT_VERSION_TTL_MS, storedVersions, type DataKey } from '../crypto/dataKeys';

/** Applications per transaction: short row locks beside the saves. */
export const REENCRYPT_BATCH = 50;

/** Sweeps before a run gives up retiring a tenant's old versions (saves keep landing under them). */
export const RETIRE_ATTEMPTS = 100;

export interface ReencryptProgress {
  readonly tenantId: string;
  /** The version everything is being sealed under. */
  readonly version: number;
  /** Applications sealed again by this batch (0 when the step sealed none). */
  readonly applications: number;
  /** Objects sealed again by this step. */
  readonly objects: number;
  /** The versions retired by this step, once nothing is under them. */
  readonly retired: readonly number[];
}

export interface ReencryptOptions {
  readonly onProgress?: (progress: ReencryptProgress) => void | Promise<void>;
  /** Waits between batches (operators slow a run down on a busy server; tests stop it midway). */
  readonly pauseMs?: number;
  /** How long servers may seal under an old version after a new one is made. */
  readonly settleMs?: number;
}

/** The run under way, one stopped midway, or else a new one: its id. */
export async function reencryptionRun(db: Database): Promise<number> {
  const { rows } = (await db.execute(sql`select id from key_reencryption_runs
    where finished_at is null order by id desc limit 1`)) as unknown as { rows: { id: number }[] };
  if (rows[0]) return Number(rows[0].id);
  // Started by the database's clock, the one that dates the keys the run makes.
  const { rows: made } = (await db.execute(
    sql`insert into key_reencryption_runs default values returning id`,
  )) as unknown as { rows: { id: number }[] };
  return Number(made[0]!.id);
}

export async function finishReencryptionRun(db: Database, run: number): Promise<void> {
  await db
    .update(keyReencryptionRuns)
    .set({ finishedAt: new Date() })
    .where(eq(keyReencryptionRuns.id, run));
}

/**
 * The version a tenant was finished under by this run (its only key, made since the run started);
 * undefined when the run has yet to do it.
 */
export async function finishedInRun(
  db: Database,
  tenantId: string,
  run: number,
): Promise<number | undefined> {
  return runInTenant(tenantId, async () => {
    const { rows } = (await db.execute(sql`select max(k.version) as version from tenant_data_keys k
      where k.tenant_id = ${tenantId}
      having count(*) = 1 and min(k.created_at) >= (select r.started_at from key_reencryption_runs r where r.id = ${run})`)) as unknown as {
      rows: { version: number | string }[];
    };
    return rows[0] ? Number(rows[0].version) : undefined;
  });
}

/**
 * Makes the tenant's new data key unless a stopped run left one. A run makes every tenant's before
 * it re-encrypts any (D192): the wait for servers to follow (`settleMs`, counted from the key's
 * making) then passes for all tenants at once, not once per tenant.
 */
export async function prepareTenant(
  db: Database,
  vault: AnswerVault,
  tenantId: string,
): Promise<void> {
  await runInTenant(tenantId, () => versionsToFinish(db, vault, tenantId));
}

/** The tenant's versions, highest first, after making a new one unless a run was under way. */
async function versionsToFinish(
  db: Database,
  vault: AnswerVault,
  tenantId: string,
): Promise<number[]> {
  const versions = await storedVersions(db, tenantId);
  // No key yet: nothing is sealed. More than one: a stopped run, whose newest key is kept.
  if (versions.length !== 1) return versions;
  const wrapper = vault.keys.masterKeys.current;
  await db
    .insert(tenantDataKeys)
    .values({
      tenantId,
      version: versions[0]! + 1,
      wrappedKey: await wrapper.wrap(randomBytes(32), tenantId),
      masterKeyId: wrapper.id,
    })
    .onConflictDoNothing();
  return storedVersions(db, tenantId);
}

const underOlder = (tenantId: string, version: number) => sql`applications.tenant_id = ${tenantId}
  and exists (select 1 from jsonb_each(applications.answers) e where jsonb_typeof(e.value) = 'object'
    and coalesce((e.value ->> 'keyVersion')::int, 1) < ${version})`;

/** Seals one batch of the tenant's answers under older versions again; how many applications. */
async function reencryptBatch(
  db: Database,
  tenantId: string,
  keys: ReadonlyMap<number, DataKey>,
  current: DataKey,
): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = (await tx.execute(sql`select user_id, answers from applications
      where ${underOlder(tenantId, current.version)} limit ${REENCRYPT_BATCH} for update`)) as unknown as {
      rows: { user_id: string; answers: Record<string, unknown> }[];
    };
    for (const row of rows) {
      const owner = { tenantId, userId: row.user_id };
      const patch: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(row.answers)) {
        if (!isSealed(value) || keyVersionOf(value) >= current.version) continue;
        const old = keys.get(keyVersionOf(value));
        if (!old)
          throw new Error(
            `An answer of tenant ${tenantId} is under data key version ${keyVersionOf(value)}, which is not stored.`,
          );
        patch[key] = sealOne(current, owner, key, openOne(old, owner, key, value));
      }
      await tx.execute(sql`update applications set answers = answers || ${JSON.stringify(patch)}::jsonb
        where tenant_id = ${tenantId} and user_id = ${row.user_id}::uuid`);
    }
    return rows.length;
  });
}

/** Rolls a retirement back: a value under an older version was found after the deletion. */
class StillSealed extends Error {}

/**
 * Deletes the tenant's versions below `version`, then checks that nothing is under them, in one
 * transaction (D183, D189). The deletion waits for every local object being renamed into place
 * under an old version (`placeObjectUnder`), so the listing after it sees them; the answers' check
 * holds SHARE on `applications`, which waits for every write in flight and holds new ones back
 * until the transaction ends, so it sees what the earlier ones wrote and a later one finds the
 * version gone and seals again. The versions retired, or undefined when something is still under
 * one.
 */
async function retireOlder(
  db: Database,
  storage: ObjectStorage,
  tenantId: string,
  version: number,
): Promise<number[] | undefined> {
  try {
    return await db.transaction(async (tx) => {
      const { rows: gone } = (await tx.execute(sql`delete from tenant_data_keys
        where tenant_id = ${tenantId} and version < ${version} returning version`)) as unknown as {
        rows: { version: number }[];
      };
      // Listed before the table is locked: a tenant's files can be many, and the lock holds every
      // tenant's saves.
      if (
        storage instanceof LocalStorage &&
        (await storage.keysUnder(tenantId, version)).length > 0
      )
        throw new StillSealed();
      await tx.execute(sql`lock table applications in share mode`);
      const { rows } = (await tx.execute(
        sql`select 1 from applications where ${underOlder(tenantId, version)} limit 1`,
      )) as unknown as { rows: unknown[] };
      if (rows.length > 0) throw new StillSealed();
      return gone.map((row) => Number(row.version)).sort((a, b) => a - b);
    });
  } catch (error) {
    if (error instanceof StillSealed) return undefined;
    throw error;
  }
}

/** Seconds since the tenant's newest key was made, by the database's clock. */
async function newestKeyAgeMs(db: Database, tenantId: string, version: number): Promise<number> {
  const { rows } = (await db.execute(sql`select extract(epoch from now() - created_at) * 1000 as age
    from tenant_data_keys where tenant_id = ${tenantId} and version = ${version}`)) as unknown as {
    rows: { age: number | string }[];
  };
  return Number(rows[0]?.age ?? 0);
}

/**
 * Re-encrypts one tenant's answers and local objects under a new data key and retires the old
 * ones; the version everything is under at the end (undefined: the tenant has no key yet).
 */
export async function reencryptTenant(
  db: Database,
  vault: AnswerVault,
  storage: ObjectStorage,
  tenantId: string,
  options: ReencryptOptions = {},
): Promise<number | undefined> {
  const { onProgress = () => undefined, pauseMs = 0 } = options;
  const settleMs = options.settleMs ?? 2 * CURRENT_VERSION_TTL_MS;
  return runInTenant(tenantId, async () => {
    const versions = await versionsToFinish(db, vault, tenantId);
    if (versions.length === 0) return undefined;
    // Every key is read before a batch locks rows: the embedded database has one connection.
    const keys = new Map<number, DataKey>();
    for (const version of versions) keys.set(version, await vault.keys.keyAt(tenantId, version));
    const current = keys.get(versions[0]!)!;
    const step = (counts: Partial<ReencryptProgress>) =>
      onProgress({
        tenantId,
        version: current.version,
        applications: 0,
        objects: 0,
        retired: [],
        ...counts,
      });
    const sweep = async () => {
      for (;;) {
        const applications = await reencryptBatch(db, tenantId, keys, current);
        if (applications === 0) break;
        await step({ applications });
        if (pauseMs > 0) await sleep(pauseMs);
      }
      if (!(storage instanceof LocalStorage)) return;
      const objects = await storage.keysUnder(tenantId, current.version);
      for (const key of objects) await storage.sealInPlace(key);
      if (objects.length > 0) await step({ objects: objects.length });
    };
    for (let refused = 0; ;) {
      await sweep();
      // A server that read the current version before the new one was made may still seal under
      // the old one until its cache expires: what it saved meanwhile is swept before retiring.
      const age = await newestKeyAgeMs(db, tenantId, current.version);
      if (age < settleMs) {
        await sleep(settleMs - age);
        continue;
      }
      const retired = await retireOlder(db, storage, tenantId, current.version);
      if (retired) {
        await step({ retired });
        return current.version;
      }
      if (++refused >= RETIRE_ATTEMPTS)
        throw new Error(
          `Tenant ${tenantId}: values were still sealed under data key versions below ${current.version} after ${RETIRE_ATTEMPTS} sweeps; none was retired and nothing is lost. Run the command again.`,
        );
    }
  });
}
