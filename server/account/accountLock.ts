/**
 * One account's checks and counts, one request at a time (D67). A limit or lockout that reads
 * a count and then writes it lets fifty parallel requests all read the same count; under this
 * lock the read and the write are one step. It is a transaction-scoped advisory lock keyed by the
 * tenant, the purpose and a name (the typed username, known or not, so it reveals nothing; or an
 * applicant's id), held only for the few statements inside: slow work (Argon2) runs after it.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { ServiceContext } from '../http/context';

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Runs `fn` in a transaction holding the lock of (tenant, purpose, name). Inside, use only `tx`:
 * on PGlite another statement on `ctx.db` would wait for this transaction forever.
 */
export async function underAccountLock<T>(
  ctx: Pick<ServiceContext, 'db'>,
  tenantId: string,
  purpose: string,
  name: string,
  fn: (tx: Transaction) => Promise<T>,
): Promise<T> {
  const key = JSON.stringify([tenantId, purpose, name]);
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
    return fn(tx);
  });
}
