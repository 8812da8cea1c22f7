/**
 * The two statements that save answers, prepared once (D130): the plain save (SPEC 7.2) and the save
 * with the version the client last saw (If-Match, REQ-R-2) when none of its keys conflicts. Each
 * checks, in the statement that writes, that the data key its sealed values are under is still
 * stored (D183, D189).
 */
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { preparedOnce } from '../db/prepared';
import { applications } from '../db/schema';
import { RetiredSealingKey, sealingKeyStored } from '../crypto/dataKeys';

const heldInSave = sealingKeyStored(sql.placeholder('tenantId'), sql.placeholder('keyVersion'));

/**
 * The plain save: merged into the stored answers, created on first use (D123). When the key its
 * values are sealed under was retired, the answers are null and the statement fails on their
 * NOT NULL, writing nothing (`isRetiredKeyRefusal`): an INSERT's VALUES take no WHERE.
 */
export const mergeAnswers = preparedOnce((db) =>
  db
    .insert(applications)
    .values({
      tenantId: sql.placeholder('tenantId'),
      userId: sql.placeholder('userId'),
      answers: sql`case when ${heldInSave} then ${sql.placeholder('answers')}::jsonb end`,
      version: 1,
      keyVersions: sql.placeholder('keyVersions'),
      updatedAt: sql.placeholder('now'),
    })
    .onConflictDoUpdate({
      target: [applications.tenantId, applications.userId],
      set: {
        answers: sql`${applications.answers} || excluded.answers`,
        version: sql`${applications.version} + 1`,
        keyVersions: sql`${applications.keyVersions} || coalesce((select jsonb_object_agg(k, ${applications.version} + 1) from jsonb_object_keys(excluded.answers) as k), '{}'::jsonb)`,
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: isNull(applications.submittedAt),
    })
    .returning({ version: applications.version })
    .prepare('answers_merge'),
);

/**
 * What two stored values are compared by: a sealed answer's keyed digest (its ciphertext differs on
 * every save, D150), any other value itself; a missing one is null.
 */
const comparable = (value: SQL) => sql`coalesce((${value}) -> 'digest', ${value}, 'null'::jsonb)`;

/**
 * The conflict rule of REQ-R-2, the one place it is written: a key of the save (`answers`, as
 * stored) conflicts when it was changed after `since` (the client's base version) to another value.
 * The rows of the save's keys that conflict, to select from against the application row.
 */
const conflictingRows = (answers: SQL, since: SQL) => sql`from jsonb_each(${answers}) as mine(k, v)
  where coalesce((${applications.keyVersions} ->> mine.k)::int, 0) > ${since}
  and ${comparable(sql`${applications.answers} -> mine.k`)} <> ${comparable(sql`mine.v`)}`;

/** The keys of the save that conflict (a JSON list). */
export const conflictingKeys = (answers: SQL, since: SQL) =>
  sql<
    string[]
  >`(select coalesce(jsonb_agg(mine.k), '[]'::jsonb) ${conflictingRows(answers, since)})`;

/**
 * What other tabs or devices wrote since the base version and the save does not carry, as stored:
 * the client takes these in, so its next base version really covers everything it has seen.
 */
export const othersSince = (answers: SQL, since: SQL) =>
  sql<
    Record<string, unknown>
  >`(select coalesce(jsonb_object_agg(kv.k, coalesce(${applications.answers} -> kv.k, '""'::jsonb)), '{}'::jsonb)
    from jsonb_each_text(${applications.keyVersions}) as kv(k, v)
    where kv.v::int > ${since} and not (${answers} ? kv.k))`;

const answers = sql`${sql.placeholder('answers')}::jsonb`;
const baseVersion = sql`${sql.placeholder('baseVersion')}::int`;

/**
 * The save with a base version, when no key it carries conflicts (`conflictingRows`): merged, every
 * key at the new version, and the keys others changed since the base version returned with their
 * values. No row when a key conflicts, the application is submitted or not yet created, or the key
 * its values are sealed under was retired (the transaction of saveAnswersSince tells them apart).
 */
export const saveUnlessConflicting = preparedOnce((db) =>
  db
    .update(applications)
    .set({
      answers: sql`${applications.answers} || ${answers}`,
      version: sql`${applications.version} + 1`,
      keyVersions: sql`${applications.keyVersions} || (select jsonb_object_agg(k, ${applications.version} + 1) from jsonb_object_keys(${answers}) as k)`,
      updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
    })
    .where(
      and(
        eq(applications.tenantId, sql.placeholder('tenantId')),
        eq(applications.userId, sql.placeholder('userId')),
        isNull(applications.submittedAt),
        heldInSave,
        // A scalar subquery, not NOT EXISTS: the planner turns NOT EXISTS into an anti-join, which
        // PostgreSQL does not check again against the row a concurrent save committed (saves of one
        // key from one base version then all won). A correlated subplan is re-run on that row.
        sql`(select count(*) ${conflictingRows(answers, baseVersion)}) = 0`,
      ),
    )
    .returning({ version: applications.version, others: othersSince(answers, baseVersion) })
    .prepare('answers_save_since'),
);

/** Whether a save was refused for values sealed under a retired key (`mergeAnswers`, above). */
export function isRetiredKeyRefusal(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof RetiredSealingKey) return true;
    const { code, column } = cause as { code?: unknown; column?: unknown };
    if (code === '23502' && column === 'answers') return true;
  }
  return false;
}
