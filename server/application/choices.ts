/**
 * Coded answers are the definition's (D74): a save's select, radio and month/year values
 * must be among their options, and every `_desc` label it touches is the definition's, never the
 * body's. Options that depend on another answer read it from the stored answers when the save does
 * not carry it.
 */
import { codedAnswers, touchesCodedAnswers, type Definition } from '../../runtime';
import { serverMessages } from '../../contract';
import { applications } from '../db/schema';
import { HttpError } from '../errors';
import type { ServiceContext } from '../http/context';
import { and, eq } from 'drizzle-orm';
import { vaultOf } from '../crypto/answerVault';

type Scope = { readonly tenantId: string; readonly userId: string };

export async function withDefinitionChoices(
  ctx: ServiceContext,
  user: Scope,
  definition: Definition,
  answers: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!touchesCodedAnswers(definition, answers)) return answers;
  const [row] = await ctx.db
    .select({ answers: applications.answers })
    .from(applications)
    .where(and(eq(applications.tenantId, user.tenantId), eq(applications.userId, user.userId)));
  const stored = await vaultOf(ctx).open(user, row?.answers ?? {});
  const checked = codedAnswers(definition, answers, stored, ctx.config.now());
  if (checked.problems.length > 0)
    throw new HttpError(400, serverMessages.badValues(checked.problems.slice(0, 20)));
  return checked.answers;
}
