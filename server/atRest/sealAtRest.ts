/**
 * Answers saved before D150 are sealed in place at start, in batches: each batch's rows are locked,
 * their plaintext sensitive values replaced by sealed ones, nothing else changed (no version, no
 * last change: the applicant's answers are the same). Temporary answers never keep sensitive keys
 * (D70); any left from before are dropped. Local objects stored in plain before D154 are sealed
 * in place too.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { sensitiveKeys } from '../../runtime';
import type { Database } from '../db/client';
import { runInTenant } from '../db/tenantScope';
import { LocalStorage } from '../storage/local';
import { objectTenant, type ObjectStorage } from '../storage/storage';
import type { Tenant } from '../tenant';
import { isSealed, sealedVersionOf, type AnswerVault } from '../crypto/answerVault';
import { holdSealingKey, RetiredSealingKey } from '../crypto/dataKeys';

const BATCH = 100;

/** Every key a sensitive question owns in any published version of the tenant's definition. */
export function tenantSensitiveKeys(tenant: Pick<Tenant, 'versions' | 'definitionAt'>) {
  const keys = new Set<string>();
  for (const version of tenant.versions)
    for (const key of sensitiveKeys(tenant.definitionAt(version))) keys.add(key);
  return keys;
}

/** Seals the tenant's plaintext sensitive answers; the number of applications sealed. */
export async function sealStoredAnswers(
  db: Database,
  vault: AnswerVault,
  tenantId: string,
  sensitive: ReadonlySet<string>,
): Promise<number> {
  if (sensitive.size === 0) return 0;
  const keys = sql`array[${sql.join(
    [...sensitive].map((key) => sql`${key}`),
    sql`, `,
  )}]::text[]`;
  await db.execute(
    sql`update tmp_answers set answers = answers - ${keys} where tenant_id = ${tenantId} and answers ?| ${keys}`,
  );
  // The key is read before any batch locks rows: the embedded database has one connection.
  await vault.keys.keyOf(tenantId);
  let sealed = 0;
  for (;;) {
    const count = await db
      .transaction(async (tx) => {
        const { rows } = (await tx.execute(sql`select user_id, answers from applications
        where tenant_id = ${tenantId} and exists (select 1 from jsonb_each(answers) e
          where e.key = any(${keys}) and jsonb_typeof(e.value) <> 'object')
        limit ${BATCH} for update`)) as unknown as {
          rows: { user_id: string; answers: Record<string, unknown> }[];
        };
        for (const row of rows) {
          const owner = { tenantId, userId: row.user_id };
          const all = await vault.seal(owner, sensitive, row.answers);
          const patch = Object.fromEntries(
            Object.entries(all).filter(
              ([key, value]) => isSealed(value) && !isSealed(row.answers[key]),
            ),
          );
          await holdSealingKey(tx, tenantId, sealedVersionOf(patch));
          await tx.execute(sql`update applications set answers = answers || ${JSON.stringify(patch)}::jsonb
          where tenant_id = ${tenantId} and user_id = ${row.user_id}::uuid`);
        }
        return rows.length;
      })
      .catch((error: unknown) => {
        // Sealed under a version retired meanwhile (D183): the batch is sealed again under the current.
        if (!(error instanceof RetiredSealingKey)) throw error;
        vault.keys.forgetCurrent(tenantId);
        return -1;
      });
    if (count < 0) {
      await vault.keys.keyOf(tenantId);
      continue;
    }
    sealed += count;
    if (count < BATCH) return sealed;
  }
}

/**
 * Seals the local objects stored in plain, each in its tenant's scope; the number sealed. One that
 * cannot be (a tenant removed since) is logged and left as it is.
 */
export async function sealStoredObjects(
  storage: ObjectStorage,
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<number> {
  if (!(storage instanceof LocalStorage)) return 0;
  let sealed = 0;
  for (const key of await storage.plainKeys()) {
    try {
      await runInTenant(objectTenant(key), () => storage.sealInPlace(key));
      sealed++;
    } catch (error) {
      log?.warn({ key, err: (error as Error).message }, 'a stored object could not be sealed');
    }
  }
  if (sealed > 0) log?.info({ objects: sealed }, 'stored objects sealed at rest');
  return sealed;
}

/**
 * Seals every tenant's plaintext sensitive answers, each in its tenant's scope (D56), then the
 * plain local objects.
 */
export async function sealAllTenants(
  db: Database,
  vault: AnswerVault,
  tenants: readonly Tenant[],
  storage: ObjectStorage,
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<number> {
  let sealed = 0;
  for (const tenant of tenants)
    sealed += await runInTenant(tenant.id, () =>
      sealStoredAnswers(db, vault, tenant.id, tenantSensitiveKeys(tenant)),
    );
  if (sealed > 0) log?.info({ applications: sealed }, 'sensitive answers sealed at rest');
  await sealStoredObjects(storage, log);
  return sealed;
}
