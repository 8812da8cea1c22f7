/**
 * Service tokens (SPEC 2.9, 6; SECURITY.md "compensating controls"): a staff member's read-only link
 * to one applicant of one tenant. A token is `<payload>.<signature>`: the payload (base64url JSON)
 * names the tenant, the applicant, the staff member, a random id and the expiry; the signature is an
 * HMAC-SHA256 over it with the server's service-token key. Tokens are not stored: a token cannot be
 * guessed (256-bit HMAC) and is checked against the tenant of the request and the applicant's row.
 */
import { and, eq, lt } from 'drizzle-orm';
import { z } from 'zod';
import { answersForCopy, chosenTab, tabGroups } from '../../runtime';
import { serviceMessages, type MintServiceTokenResponse, type ServiceData } from '../../contract';
import { applications, serviceTokenRevocations, staffServiceLinks, users } from '../db/schema';
import { HttpError } from '../errors';
import { hmac, randomToken, sameSecret, secretFile } from '../secrets';
import { vaultOf } from '../crypto/answerVault';
import { serviceTokenKey } from '../crypto/serviceKey';
import type { ServerConfig } from '../config';
import type { Database } from '../db/client';
import { normalizeEmail } from '../account';
import type { PublishedDefinitions } from '../http/context';
import { documentAnswers } from '../documents';

const payloadSchema = z.strictObject({
  v: z.literal(1),
  /** tenant id */
  t: z.string().min(1).max(64),
  /** applicant (user) id */
  u: z.uuid(),
  /** staff id, for the access log */
  s: z.string().min(1).max(64),
  /** random id (128 bits) */
  j: z.string().min(16).max(64),
  /** expiry, Unix milliseconds */
  e: z.number().int().positive(),
});
export type ServiceTokenPayload = z.infer<typeof payloadSchema>;

/** What a verified token grants: read access to one applicant of one tenant. */
export interface ServiceGrant {
  readonly tenantId: string;
  readonly userId: string;
  readonly staffId: string;
  readonly tokenId: string;
  readonly expiresAt: Date;
}

interface TokenContext {
  readonly db: Database;
  readonly config: ServerConfig;
  /** Where the tenant's links lead (tenantOrigin, D196). */
  readonly originOf: (tenantId: string) => string;
}

const SIGNING_CONTEXT = 'service-token:v1:';

export function signServiceToken(config: ServerConfig, payload: ServiceTokenPayload): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${hmac(serviceTokenKey(config), SIGNING_CONTEXT + body)}`;
}

const invalid = () => new HttpError(401, serviceMessages.tokenInvalid);

/**
 * Checks signature, expiry and tenant; any failure is the same 401 with the same message, so a
 * caller learns nothing about why (expired, tampered, another tenant's).
 */
export function verifyServiceToken(
  config: ServerConfig,
  token: unknown,
  tenantId: string,
): ServiceGrant {
  if (typeof token !== 'string' || token.length > 1024) throw invalid();
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) throw invalid();
  const expected = hmac(serviceTokenKey(config), SIGNING_CONTEXT + body);
  if (!sameSecret(signature, expected)) throw invalid();
  let payload: ServiceTokenPayload;
  try {
    payload = payloadSchema.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
  } catch {
    throw invalid();
  }
  if (payload.e <= config.now().getTime()) throw invalid();
  if (payload.t !== tenantId) throw invalid();
  return {
    tenantId: payload.t,
    userId: payload.u,
    staffId: payload.s,
    tokenId: payload.j,
    expiresAt: new Date(payload.e),
  };
}

/** The link staff open: the tenant's own origin with `?service_token=` (D196). */
export function serviceLink(origin: string, token: string): string {
  return `${origin}/?service_token=${encodeURIComponent(token)}`;
}

/**
 * Mints a link for the applicant with this e-mail address in this tenant (staff call and CLI). An
 * unknown address is a 404 for the staff member (staff may know which applicants exist).
 */
export async function mintServiceToken(
  ctx: TokenContext,
  tenantId: string,
  email: string,
  staffId: string,
): Promise<MintServiceTokenResponse> {
  const [user] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.email, normalizeEmail(email))));
  if (!user) throw new HttpError(404, serviceMessages.noSuchApplicant);
  const expiresAt = new Date(ctx.config.now().getTime() + ctx.config.serviceTokenTtlMs);
  const token = signServiceToken(ctx.config, {
    v: 1,
    t: tenantId,
    u: user.id,
    s: staffId,
    j: randomToken(16),
    e: expiresAt.getTime(),
  });
  return {
    id: tokenIdOf(token),
    token,
    url: serviceLink(ctx.originOf(tenantId), token),
    expires_at: expiresAt.toISOString(),
  };
}

/** The random id of a token (its `j`), as the staff call answers it for revocation. */
function tokenIdOf(token: string): string {
  const body = token.split('.')[0] ?? '';
  return (JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { j: string }).j;
}

/**
 * Revokes a link before it expires (staff call): its id is kept, in the staff member's tenant only,
 * until the latest possible expiry of a token. Expired entries are pruned on the way.
 */
export async function revokeServiceToken(
  ctx: TokenContext,
  tenantId: string,
  tokenId: string,
): Promise<void> {
  const now = ctx.config.now();
  await ctx.db.delete(serviceTokenRevocations).where(lt(serviceTokenRevocations.expiresAt, now));
  await ctx.db
    .insert(serviceTokenRevocations)
    .values({
      tenantId,
      tokenId,
      expiresAt: new Date(now.getTime() + ctx.config.serviceTokenTtlMs),
      revokedAt: now,
    })
    .onConflictDoNothing();
}

/** A revoked token answers like any bad token. */
export async function assertNotRevoked(ctx: TokenContext, grant: ServiceGrant): Promise<void> {
  const [row] = await ctx.db
    .select({ tokenId: serviceTokenRevocations.tokenId })
    .from(serviceTokenRevocations)
    .where(
      and(
        eq(serviceTokenRevocations.tenantId, grant.tenantId),
        eq(serviceTokenRevocations.tokenId, grant.tokenId),
      ),
    );
  if (row) throw invalid();
}

/** The document answers staff see (SPEC 3.4: question key → { file_name, file_size }). */
export async function serviceDocumentAnswers(
  ctx: TokenContext,
  grant: Pick<ServiceGrant, 'tenantId' | 'userId'>,
): Promise<ServiceData['document_answer']> {
  return documentAnswers(ctx, { tenantId: grant.tenantId, userId: grant.userId });
}

/**
 * SPEC 7.2 `GET /service/tmp-pdf`: the granted applicant's answers (SSN masked), add-another counts,
 * document answers and chosen tabs. Read-only: a missing application row is not created. An
 * applicant who no longer exists answers the same 401 as a bad token. The revocation is checked
 * after the reads, last before answering (D67): a read that overlaps a revocation answers
 * only if it was over before the revocation was stored.
 */
export async function readServiceData(
  ctx: TokenContext,
  grant: ServiceGrant,
  definitions: PublishedDefinitions,
): Promise<ServiceData> {
  const data = await serviceViewData(ctx, grant, definitions);
  await assertNotRevoked(ctx, grant);
  // A link minted in the console shows when it was last opened (a CLI link has no row).
  await ctx.db
    .update(staffServiceLinks)
    .set({ openedAt: ctx.config.now() })
    .where(
      and(
        eq(staffServiceLinks.tenantId, grant.tenantId),
        eq(staffServiceLinks.tokenId, grant.tokenId),
      ),
    );
  return data;
}

/**
 * One applicant's read-only view data, for a service link or the staff console (its own audit),
 * read under the definition version it was submitted with; a version older than the page's latest
 * comes with the response, so the view draws the questions the applicant answered (D145).
 */
export async function serviceViewData(
  ctx: TokenContext,
  grant: Pick<ServiceGrant, 'tenantId' | 'userId'>,
  definitions: PublishedDefinitions,
): Promise<ServiceData> {
  const [user] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, grant.tenantId), eq(users.id, grant.userId)));
  if (!user) throw invalid();
  const [row] = await ctx.db
    .select({
      answers: applications.answers,
      addAnother: applications.addAnother,
      tabs: applications.tabs,
      definitionVersion: applications.definitionVersion,
    })
    .from(applications)
    .where(and(eq(applications.tenantId, grant.tenantId), eq(applications.userId, grant.userId)));
  const definition = definitions.definitionAt(row?.definitionVersion);
  // SECURITY.md test 20: staff see what the definition masks in copies (the SSN's last four digits).
  const answer: ServiceData['answer'] = {};
  const answers = await vaultOf(ctx).open(grant, row?.answers ?? {});
  for (const [key, value] of Object.entries(answersForCopy(definition, answers))) {
    if (value === null || typeof value === 'string' || typeof value === 'boolean')
      answer[key] = value;
  }
  const tabs: Record<string, string> = {};
  for (const [id, group] of tabGroups(definition))
    tabs[id] = chosenTab(group, { tabs: row?.tabs ?? {} });
  const data: ServiceData = {
    answer,
    add_another: { ...(row?.addAnother ?? {}) },
    document_answer: await serviceDocumentAnswers(ctx, grant),
    tabs,
    definition_version: definition.version,
    ...(definition.version === definitions.definitionVersion ? {} : { definition }),
  };
  return data;
}

/**
 * Staff authentication (D41): `Authorization: Bearer <key>` where the key is the tenant's
 * STAFF_API_KEYS entry, or the local CLI key of DATA_DIR (see `cliKey`). Returns the staff id.
 */
export function staffIdFor(
  config: ServerConfig,
  tenantId: string,
  authorization: string | undefined,
): string {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  const presented = match?.[1];
  if (!presented) throw new HttpError(401, serviceMessages.staffUnauthorized);
  const tenantKey = config.staffApiKeys[tenantId];
  if (tenantKey && sameSecret(presented, tenantKey)) return `staff:${tenantId}`;
  if (sameSecret(presented, cliKey(config))) return 'cli';
  throw new HttpError(401, serviceMessages.staffUnauthorized);
}

/** The file in DATA_DIR with the key the `service-token` CLI presents to a running server. */
export const CLI_KEY_FILE = 'cli.key';

export function cliKey(config: ServerConfig): string {
  return secretFile(config.dataDir, CLI_KEY_FILE);
}
