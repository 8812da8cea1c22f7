/**
 * Publishing a tenant's definition versions (D145): immutable, numbered from 1 without gaps, each
 * publish under its tenant's lock; the checks of a publish run under that lock and its audit row in
 * its transaction (D194).
 */
import { desc, eq, sql } from 'drizzle-orm';
import { loadDefinition, type Definition } from '../runtime';
import type { Database } from './db/client';
import { runInTenant } from './db/tenantScope';
import { definitionVersions, tenants } from './db/schema';

/** A call named a tenant that does not exist. */
export class NoSuchTenant extends Error {
  constructor(tenantId: string) {
    super(`There is no tenant "${tenantId}".`);
  }
}

/** Stores a published version: the definition carries its number as its own `version`. */
export function insertVersion(
  tx: Pick<Database, 'insert'>,
  tenantId: string,
  version: number,
  definition: Definition,
  publishedBy: string,
) {
  return tx
    .insert(definitionVersions)
    .values({ tenantId, version, definition: { ...definition, version }, publishedBy });
}

/** A transaction of the database (what a publish's checks and audit run in). */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** The latest published version, as stored. */
export type StoredVersion = { readonly version: number; readonly definition: unknown };

export interface PublishOptions {
  readonly ifNone?: boolean; // only when the tenant has no version yet (a seed)
  /**
   * Runs under the tenant's lock with its latest version, before anything is written: it throws to
   * refuse the publish, or answers `unchanged` to publish nothing (the same form again).
   */
  readonly before?: (
    tx: Transaction,
    latest: StoredVersion | undefined,
  ) => Promise<'unchanged' | void>;
  /** Runs in the publish's transaction once the version is stored (the audit row). */
  readonly after?: (tx: Transaction, version: number) => Promise<void>;
}

/**
 * Publishes a definition as the tenant's next version: its number, and whether it was published
 * (`before` may answer that it is unchanged). The data is checked with the runtime's full format
 * schema first (a ConfigurationError names the path); the tenant's row is locked while the number
 * is chosen, so parallel publishes get distinct, gapless numbers.
 */
export async function publishVersion(
  db: Database,
  tenantId: string,
  data: unknown,
  publishedBy: string,
  options: PublishOptions = {},
): Promise<{ version: number; published: boolean }> {
  const definition = loadDefinition(data);
  return runInTenant(tenantId, () =>
    db.transaction(async (tx) => {
      const locked = await tx
        .select({ id: tenants.id })
        .from(tenants)
        .where(eq(tenants.id, tenantId))
        .for('update');
      if (locked.length === 0) throw new NoSuchTenant(tenantId);
      const [latest] = await tx
        .select({ version: definitionVersions.version, definition: definitionVersions.definition })
        .from(definitionVersions)
        .where(eq(definitionVersions.tenantId, tenantId))
        .orderBy(desc(definitionVersions.version))
        .limit(1);
      const current = latest?.version ?? 0;
      if (options.ifNone && current > 0) return { version: current, published: false };
      if ((await options.before?.(tx, latest)) === 'unchanged')
        return { version: current, published: false };
      const version = current + 1;
      await insertVersion(tx, tenantId, version, definition, publishedBy);
      await tx
        .update(tenants)
        .set({ definitionId: definition.id, revision: sql`${tenants.revision} + 1` })
        .where(eq(tenants.id, tenantId));
      await options.after?.(tx, version);
      return { version, published: true };
    }),
  );
}

/** Publishes a definition as the tenant's next version (publishVersion) and returns its number. */
export async function publishDefinition(
  db: Database,
  tenantId: string,
  data: unknown,
  publishedBy: string,
  options: PublishOptions = {},
): Promise<number> {
  return (await publishVersion(db, tenantId, data, publishedBy, options)).version;
}
