/**
 * A season's worth of rows, generated in the database in batches: applications (with their users,
 * the staff list's rows by its triggers, and some web-status events) and finished jobs. The staff
 * listing, queue and deadline benches start from them to measure what a college sees late in a cycle.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import { runInTenant } from '../../server/db/tenantScope';

export const SEASON = { applications: 50_000, finishedJobs: 250_000 } as const;

/**
 * `count` applications of the tenant, a third submitted, a fifth with errors, names from a small
 * set with a number each (so a name search finds a handful). Addresses are `<prefix><n>@example.org`.
 */
export async function generateApplications(
  db: Database,
  tenantId: string,
  count: number = SEASON.applications,
  prefix = 'gen',
): Promise<void> {
  const batch = 10_000;
  await runInTenant(tenantId, async () => {
    for (let from = 1; from <= count; from += batch)
      await db.execute(sql`with made as (
          insert into users (tenant_id, email, password_hash, confirmed_at, created_at)
          select ${tenantId}, ${prefix} || n || '@example.org', 'x', now(), now()
          from generate_series(${from}::int, ${Math.min(from + batch - 1, count)}::int) n
          returning id, email),
        numbered as (select id, substr(split_part(email, '@', 1), ${prefix.length + 1})::int as n
          from made),
        apps as (insert into applications (tenant_id, user_id, answers, submitted_at, updated_at)
          select ${tenantId}, id, jsonb_build_object(
              'first_name', (array['Ada','Grace','Alan','Edsger','Barbara'])[1 + n % 5],
              'last_name', (array['Lovelace','Hopper','Turing','Dijkstra','Liskov'])[1 + (n / 5) % 5] || n),
            case when n % 3 = 0 then timestamptz '2026-01-01' + (n % 300) * interval '1 day' end,
            timestamptz '2026-01-01' + n * interval '1 minute'
          from numbered returning user_id)
        insert into web_status_events (tenant_id, user_id, web_status, at)
          select ${tenantId}, id, 'validating', now() from numbered where n % 5 = 0`);
    await db.execute(sql`analyze staff_listing`);
    await db.execute(sql`analyze staff_listing_words`);
  });
}

/**
 * `count` finished jobs of a season: five per applicant, one in a hundred failed, finished over the
 * last day (inside the retention window, so not yet pruned).
 */
export async function generateFinishedJobs(
  db: Database,
  tenantId: string,
  count: number = SEASON.finishedJobs,
): Promise<void> {
  const batch = 50_000;
  const applicants = Math.max(1, Math.floor(count / 5));
  for (let from = 1; from <= count; from += batch)
    await db.execute(sql`insert into jobs
        (kind, payload, status, attempts, max_attempts, run_after, created_at, updated_at, last_error)
      select 'document-conversion',
        jsonb_build_object('tenantId', ${tenantId}::text, 'userId', 'u' || (n % ${applicants}),
          'questionKey', 'transcript_file', 'generation', 1),
        case when n % 100 = 0 then 'failed' else 'done' end, 1, 3,
        now() - (n % 86400) * interval '1 second', now() - (n % 86400) * interval '1 second',
        now() - (n % 86400) * interval '1 second' + interval '2 seconds',
        case when n % 100 = 0 then 'conversion failed' end
      from generate_series(${from}::int, ${Math.min(from + batch - 1, count)}::int) n`);
  await db.execute(sql`vacuum analyze jobs`);
}
