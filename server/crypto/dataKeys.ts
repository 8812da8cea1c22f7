/**
 * Each tenant's data keys (D150, D167): 256 random bits made on the tenant's first sensitive save,
 * stored only wrapped by the master key, unwrapped once per process and kept in memory. A tenant
 * holds one key per version: the highest seals, older ones open what is still sealed under them
 * until `npm run keys -- rotate --reencrypt` retires them. Two processes making a tenant's first
 * key race on the primary key; the loser reads the winner's.
 */
import { randomBytes, hkdfSync } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { tenantDataKeys } from '../db/schema';
import { runInTenant } from '../db/tenantScope';
import type { MasterKeys } from './masterKey';

/** The version of the keys made before versions existed, and of what was sealed naming none. */
export const FIRST_KEY_VERSION = 1;

/**
 * How long a process seals under the current version it last read: a new version made by another
 * process is followed within this time, without a query per save (D167).
 */
export const CURRENT_VERSION_TTL_MS = 2_000;

/**
 * The keys derived from a tenant's data key: one encrypts answers, one digests them for
 * comparisons, one seals stored objects (D154).
 */
export interface DataKey {
  readonly version: number;
  readonly encryption: Buffer;
  readonly digest: Buffer;
  readonly objects: Buffer;
}

function derived(version: number, dataKey: Buffer): DataKey {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', dataKey, '', info, 32));
  return {
    version,
    encryption: derive('answers encryption v1'),
    digest: derive('answers digest v1'),
    objects: derive('objects encryption v1'),
  };
}

export class TenantKeys {
  /** Keys by tenant and version: a version's key never changes, so it is kept. */
  private readonly keys = new Map<string, Promise<DataKey>>();
  private readonly current = new Map<
    string,
    { readonly until: number; version: Promise<number> }
  >();

  constructor(
    private readonly db: Database,
    readonly masterKeys: MasterKeys,
    private readonly ttlMs = CURRENT_VERSION_TTL_MS,
    /** The clock the cache of the current version expires by (the server's, in a server). */
    private readonly now: () => number = Date.now,
  ) {}

  /** The tenant's current data key, made on first use. */
  async keyOf(tenantId: string): Promise<DataKey> {
    let current = this.current.get(tenantId);
    if (!current || current.until <= this.now()) {
      // In that tenant's scope whoever asks: a multipart upload's stream may run outside the
      // request's scope, and on PostgreSQL the key's row is invisible there (RLS, D56).
      const version = runInTenant(tenantId, () => this.currentVersion(tenantId));
      current = { until: this.now() + this.ttlMs, version };
      this.current.set(tenantId, current);
      // A failed read (a database fault) is tried again by the next call.
      version.catch(() => this.current.delete(tenantId));
    }
    return this.keyAt(tenantId, await current.version);
  }

  /** Forgets the tenant's current version: the next `keyOf` reads it (a save found its key retired). */
  forgetCurrent(tenantId: string): void {
    this.current.delete(tenantId);
  }

  /** The objects key of the tenant's current data key, or of `version` (server/storage/local.ts). */
  readonly objectKeys = (tenantId: string, version?: number): Promise<DataKey> =>
    version === undefined ? this.keyOf(tenantId) : this.keyAt(tenantId, version);

  /**
   * Runs `place` (a local object's rename) in a transaction that share-locks the row of `version`: a
   * retirement deletes the row before it lists the objects, so it waits for the rename and then sees
   * the object (D189). False, `place` not run and the current version read again, when retired.
   */
  readonly placeObjectUnder = (
    tenantId: string,
    version: number,
    place: () => Promise<void>,
  ): Promise<boolean> =>
    runInTenant(tenantId, async () => {
      const held = await this.db.transaction(async (tx) => {
        const { rows } = (await tx.execute(sql`select 1 from ${tenantDataKeys}
          where ${tenantDataKeys.tenantId} = ${tenantId} and ${tenantDataKeys.version} = ${version}
          for key share`)) as unknown as { rows: unknown[] };
        if (rows.length === 0) return false;
        await place();
        return true;
      });
      if (!held) this.forgetCurrent(tenantId);
      return held;
    });

  /** The tenant's data key of `version`; throws when that version is not stored (retired). */
  keyAt(tenantId: string, version: number): Promise<DataKey> {
    const id = `${tenantId}\u0000${version}`;
    let key = this.keys.get(id);
    if (!key) {
      key = runInTenant(tenantId, () => this.stored(tenantId, version)).then((stored) => {
        if (!stored)
          throw new Error(
            `The data key of tenant ${tenantId} version ${version} is not stored: it was retired (D167).`,
          );
        return derived(version, stored);
      });
      this.keys.set(id, key);
      key.catch(() => this.keys.delete(id));
    }
    return key;
  }

  /** The highest stored version, after making the first key when there is none. */
  private async currentVersion(tenantId: string): Promise<number> {
    const versions = await storedVersions(this.db, tenantId);
    if (versions.length > 0) return Math.max(...versions);
    const wrapper = this.masterKeys.current;
    await this.db
      .insert(tenantDataKeys)
      .values({
        tenantId,
        version: FIRST_KEY_VERSION,
        wrappedKey: await wrapper.wrap(randomBytes(32), tenantId),
        masterKeyId: wrapper.id,
      })
      .onConflictDoNothing();
    return FIRST_KEY_VERSION;
  }

  private async stored(tenantId: string, version: number): Promise<Buffer | undefined> {
    const [row] = await this.db
      .select()
      .from(tenantDataKeys)
      .where(and(eq(tenantDataKeys.tenantId, tenantId), eq(tenantDataKeys.version, version)));
    if (!row) return undefined;
    const wrapper = this.masterKeys.byId(row.masterKeyId);
    if (!wrapper)
      throw new Error(
        `The data key of tenant ${tenantId} is wrapped by master key ${row.masterKeyId}, neither the configured ${this.masterKeys.current.id} nor a previous one (D150, D155).`,
      );
    return wrapper.unwrap(row.wrappedKey, tenantId);
  }
}

/** The versions of the tenant's stored data keys, highest first. */
export async function storedVersions(db: Database, tenantId: string): Promise<number[]> {
  const rows = await db
    .select({ version: tenantDataKeys.version })
    .from(tenantDataKeys)
    .where(eq(tenantDataKeys.tenantId, tenantId))
    .orderBy(desc(tenantDataKeys.version));
  return rows.map((row) => row.version);
}

/**
 * Whether the data key version a write's values are sealed under (`keyVersion`, null when none is
 * sealed) is still stored. Read inside the statement that writes `applications`: that statement
 * locks the table (ROW EXCLUSIVE) before it takes its snapshot, and a retirement holds SHARE on it
 * while it deletes and checks, so a write either commits before the check sees it or reads the
 * version gone (D189). No row is locked: a save writes nothing to the key's row.
 */
export const sealingKeyStored = (tenantId: unknown, keyVersion: unknown) =>
  sql<boolean>`(${keyVersion}::int is null or exists (select 1 from ${tenantDataKeys}
    where ${tenantDataKeys.tenantId} = ${tenantId} and ${tenantDataKeys.version} = ${keyVersion}::int))`;

/** Thrown by a save whose values are sealed under a data key version retired meanwhile (D183). */
export class RetiredSealingKey extends Error {}

/**
 * In a transaction writing sealed values to `applications`: locks the table against a retirement
 * first (D189), then checks the version is stored, or throws when it was retired.
 */
export async function holdSealingKey(
  tx: Pick<Database, 'execute'>,
  tenantId: string,
  keyVersion: number | null,
) {
  if (keyVersion === null) return;
  await tx.execute(sql`lock table applications in row exclusive mode`);
  const { rows } = (await tx.execute(
    sql`select ${sealingKeyStored(tenantId, keyVersion)} as held`,
  )) as unknown as { rows: { held: boolean }[] };
  if (!rows[0]?.held) throw new RetiredSealingKey();
}
