/**
 * Master key rotation (D155): every tenant's data key (of every version, D167) still wrapped by the
 * previous master key is unwrapped and wrapped again by the current one. Each key's row is one
 * compare-and-set update
 * (only while it still names the key it was read under), so a run stopped at any point leaves each
 * data key under one of the two keys, both readable, and the next run finishes the work.
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { tenantDataKeys } from '../db/schema';
import { runInTenant } from '../db/tenantScope';
import type { MasterKeys } from './masterKey';

export interface RewrapProgress {
  readonly tenantId: string;
  /** Whether this run re-wrapped it (false: it was already under the current key). */
  readonly rewrapped: boolean;
}

/** Thrown for a data key under a master key this process does not hold. */
export class UnknownMasterKey extends Error {}

/** Re-wraps the tenants' data keys under the current master key; how many were re-wrapped. */
export async function rewrapDataKeys(
  db: Database,
  keys: MasterKeys,
  tenantIds: readonly string[],
  onTenant: (progress: RewrapProgress) => void | Promise<void> = () => undefined,
): Promise<number> {
  const current = keys.current;
  let rewrapped = 0;
  for (const tenantId of tenantIds) {
    const done = await runInTenant(tenantId, async () => {
      const rows = await db
        .select()
        .from(tenantDataKeys)
        .where(eq(tenantDataKeys.tenantId, tenantId));
      let any = false;
      for (const row of rows.filter((row) => row.masterKeyId !== current.id)) {
        const previous = keys.byId(row.masterKeyId);
        if (!previous)
          throw new UnknownMasterKey(
            `The data key of tenant ${tenantId} is wrapped by master key ${row.masterKeyId}, which is neither the current nor the previous one: set MASTER_KEY_PREVIOUS (or DATA_DIR/master.key.previous) to it.`,
          );
        const dataKey = await previous.unwrap(row.wrappedKey, tenantId);
        const updated = await db
          .update(tenantDataKeys)
          .set({ wrappedKey: await current.wrap(dataKey, tenantId), masterKeyId: current.id })
          .where(
            and(
              eq(tenantDataKeys.tenantId, tenantId),
              eq(tenantDataKeys.version, row.version),
              eq(tenantDataKeys.masterKeyId, row.masterKeyId),
            ),
          )
          .returning({ tenantId: tenantDataKeys.tenantId });
        any ||= updated.length > 0;
      }
      return any;
    });
    if (done) rewrapped++;
    await onTenant({ tenantId, rewrapped: done });
  }
  return rewrapped;
}

/** How many tenants' data keys each master key wraps. */
export async function dataKeysByMasterKey(
  db: Database,
  tenantIds: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const tenantId of tenantIds) {
    const rows = await runInTenant(tenantId, () =>
      db
        .select({ masterKeyId: tenantDataKeys.masterKeyId })
        .from(tenantDataKeys)
        .where(eq(tenantDataKeys.tenantId, tenantId)),
    );
    for (const id of new Set(rows.map((row) => row.masterKeyId)))
      counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}
