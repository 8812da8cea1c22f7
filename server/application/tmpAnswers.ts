/** Anonymous temporary answers behind a token (SPEC 7.2 /public/tmp-answers, D70). */
import { and, eq } from 'drizzle-orm';
import { sensitiveKeys, withoutSensitive, type Definition } from '../../runtime';
import { serverMessages } from '../../contract';
import { tmpAnswers } from '../db/schema';
import { HttpError } from '../errors';
import { issueToken, sha256 } from '../secrets';
import type { ServiceContext } from '../http/context';
import { assertAcceptableAnswers } from './applications';

export const TMP_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Issues a token for anonymous temporary answers (for example to continue on another device). The
 * definition's sensitive answers (SSN, citizenship, conduct) are refused: without an account they
 * stay in the browser's memory only (D70).
 */
export async function storeTmpAnswers(
  ctx: ServiceContext,
  tenantId: string,
  definition: Definition,
  answers: Record<string, unknown>,
) {
  // Checked first: a sensitive value is refused whatever else is wrong with it.
  const sensitive = sensitiveKeys(definition);
  const refused = Object.keys(answers).filter((key) => sensitive.has(key));
  if (refused.length > 0)
    throw new HttpError(400, serverMessages.sensitiveNotKept(refused.slice(0, 20)));
  assertAcceptableAnswers(definition, answers);
  const now = ctx.config.now();
  const { token, hash, expiresAt } = issueToken(now, TMP_VALIDITY_MS);
  await ctx.db
    .insert(tmpAnswers)
    .values({ tokenHash: hash, tenantId, answers, createdAt: now, expiresAt });
  return { token };
}

/** The temporary answers of a token; sensitive ones never leave, even from a row stored before D70. */
export async function readTmpAnswers(
  ctx: ServiceContext,
  tenantId: string,
  definition: Definition,
  token: string,
) {
  const [row] = await ctx.db
    .select({ answers: tmpAnswers.answers, expiresAt: tmpAnswers.expiresAt })
    .from(tmpAnswers)
    .where(and(eq(tmpAnswers.tokenHash, sha256(token)), eq(tmpAnswers.tenantId, tenantId)));
  if (!row || row.expiresAt <= ctx.config.now())
    throw new HttpError(404, serverMessages.tmpExpired);
  return { answers: withoutSensitive(definition, row.answers) };
}
