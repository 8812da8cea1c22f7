/**
 * A submitted application is frozen (D69): nothing that feeds it changes after submit.
 * Writes that are not one conditional statement run under the application's row lock, the lock
 * `submit` takes, so a write and a submit happen one after the other, never interleaved.
 */
import { and, eq } from 'drizzle-orm';
import { SUBMITTED_CODE, serverMessages } from '../../contract';
import { applications } from '../db/schema';
import { HttpError } from '../errors';
import type { Transaction } from '../account';
import type { ServiceContext } from '../http/context';

interface Owner {
  readonly tenantId: string;
  readonly userId: string;
}

/** The refusal of any change after submit (the product's message, 409). */
export const submittedRefusal = () =>
  new HttpError(409, serverMessages.alreadySubmitted, { code: SUBMITTED_CODE });

const rowOf = (owner: Owner) =>
  and(eq(applications.tenantId, owner.tenantId), eq(applications.userId, owner.userId));

/** Refuses at once when the application is submitted (a cheap early answer; not a lock). */
export async function assertNotSubmitted(ctx: Pick<ServiceContext, 'db'>, owner: Owner) {
  const [row] = await ctx.db
    .select({ submittedAt: applications.submittedAt })
    .from(applications)
    .where(rowOf(owner));
  if (row?.submittedAt) throw submittedRefusal();
}

/**
 * Runs `fn` in a transaction holding the application's row lock, or refuses with 409 when the
 * application is submitted. Inside, use only `tx` (on PGlite `ctx.db` would wait for it).
 */
export async function whileOpen<T>(
  ctx: Pick<ServiceContext, 'db' | 'config'>,
  owner: Owner,
  fn: (tx: Transaction) => Promise<T>,
): Promise<T> {
  await ctx.db
    .insert(applications)
    .values({ tenantId: owner.tenantId, userId: owner.userId, updatedAt: ctx.config.now() })
    .onConflictDoNothing();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ submittedAt: applications.submittedAt })
      .from(applications)
      .where(rowOf(owner))
      .for('update');
    if (row?.submittedAt) throw submittedRefusal();
    return fn(tx);
  });
}
