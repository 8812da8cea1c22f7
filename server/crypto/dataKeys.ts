/**
 * Each tenant's data key (D150): 256 random bits made on the tenant's first sensitive save, stored
 * only wrapped by the master key, unwrapped once per process and kept in memory. Two processes
 * making a tenant's first key race on the primary key; the loser reads the winner's.
 */
import { randomBytes, hkdfSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { tenantDataKeys } from '../db/schema';
import type { MasterKeys } from './masterKey';

/**
 * The keys derived from a tenant's data key: one encrypts answers, one digests them for
 * comparisons, one seals stored objects (D154).
 */
export interface DataKey {
  readonly encryption: Buffer;
  readonly digest: Buffer;
  readonly objects: Buffer;
}

function derived(dataKey: Buffer): DataKey {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', dataKey, '', info, 32));
  return {
    encryption: derive('answers encryption v1'),
    digest: derive('answers digest v1'),
    objects: derive('objects encryption v1'),
  };
}

export class TenantKeys {
  private readonly cache = new Map<string, Promise<DataKey>>();

  constructor(
    private readonly db: Database,
    readonly masterKeys: MasterKeys,
  ) {}

  /** The tenant's data key, made on first use. Runs in the tenant's scope (RLS, D56). */
  keyOf(tenantId: string): Promise<DataKey> {
    let key = this.cache.get(tenantId);
    if (!key) {
      key = this.load(tenantId);
      this.cache.set(tenantId, key);
      // A failed read (a database fault) is tried again by the next call.
      key.catch(() => this.cache.delete(tenantId));
    }
    return key;
  }

  private async load(tenantId: string): Promise<DataKey> {
    const stored = await this.stored(tenantId);
    if (stored) return derived(stored);
    const fresh = randomBytes(32);
    const wrapper = this.masterKeys.current;
    await this.db
      .insert(tenantDataKeys)
      .values({
        tenantId,
        wrappedKey: await wrapper.wrap(fresh, tenantId),
        masterKeyId: wrapper.id,
      })
      .onConflictDoNothing();
    const winner = await this.stored(tenantId);
    if (!winner) throw new Error('tenant data key missing after insert');
    return derived(winner);
  }

  private async stored(tenantId: string): Promise<Buffer | undefined> {
    const [row] = await this.db
      .select()
      .from(tenantDataKeys)
      .where(eq(tenantDataKeys.tenantId, tenantId));
    if (!row) return undefined;
    const wrapper = this.masterKeys.byId(row.masterKeyId);
    if (!wrapper)
      throw new Error(
        `The data key of tenant ${tenantId} is wrapped by master key ${row.masterKeyId}, neither the configured ${this.masterKeys.current.id} nor a previous one (D150, D155).`,
      );
    return wrapper.unwrap(row.wrappedKey, tenantId);
  }
}
