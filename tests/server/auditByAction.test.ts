/**
 * The audit's entries of one action are an index range (D107), however long the history: the
 * completed account deletions (D164) among a season of reads are found through
 * `staff_audit_by_action`, never by reading the whole audit, newest first, on PGlite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInTenant } from '../../server/db/tenantScope';
import { completedDeletionRequests } from '../../server/account/accountDeletion';
import { databaseKinds, startServer, type TestServer } from './harness';

const TENANT = 'northfield';
/** A season's staff reads and list views in the audit. */
const SEASON_ROWS = 60_000;
const DELETED = 12;

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly Plans?: readonly PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe.each(databaseKinds)('the audit by action on %s', (database) => {
  let server: TestServer;
  const db = () => server.built.database.db;
  const deletedIds: string[] = [];

  beforeAll(async () => {
    server = await startServer({ database });
    await runInTenant(TENANT, async () => {
      await db().execute(sql`
        insert into staff_audit (tenant_id, actor, action, applicant_id, at)
        select ${TENANT}, 'dean@northfield.edu',
          case when g % 3 = 0 then 'application.list' else 'application.read' end,
          case when g % 3 = 0 then null else gen_random_uuid() end,
          now() - make_interval(secs => g)
        from generate_series(1, ${SEASON_ROWS}) g`);
      for (let i = 0; i < DELETED; i++) {
        const id = randomUUID();
        deletedIds.push(id);
        // Spread over the season, the newest first in `deletedIds`.
        await db().execute(sql`
          insert into staff_audit (tenant_id, actor, action, applicant_id, at)
          values (${TENANT}, 'admin', 'account.deleted', ${id},
            now() - make_interval(secs => ${(i + 1) * 4_000}))`);
      }
      await db().execute(sql`analyze staff_audit`);
    });
  }, 240_000);
  afterAll(async () => server?.close());

  async function plan(statement: SQL) {
    const result = (await runInTenant(TENANT, () =>
      db().execute(sql`explain (analyze, format json) ${statement}`),
    )) as unknown as { rows: { 'QUERY PLAN': unknown }[] };
    const raw = result.rows[0]?.['QUERY PLAN'];
    const [root] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [
      { 'Execution Time': number; Plan: PlanNode },
    ];
    return { ms: root['Execution Time'], nodes: nodesOf(root.Plan) };
  }

  it('lists the completed deletions newest first through the action index, no scan of the audit', async () => {
    const ctx = { db: db() };
    const rows = await runInTenant(TENANT, () => completedDeletionRequests(ctx, TENANT, 50));
    expect(rows.map((row) => row.userId)).toEqual(deletedIds);

    const { ms, nodes } = await plan(completedDeletionRequests(ctx, TENANT, 50).getSQL());
    console.info(`completed deletions among ${SEASON_ROWS} audit rows on ${database}: ${ms} ms`);
    const onAudit = nodes.filter((node) => node['Relation Name'] === 'staff_audit');
    expect(onAudit.map((node) => node['Node Type'])).not.toContain('Seq Scan');
    expect(onAudit.map((node) => node['Index Name'])).toContain('staff_audit_by_action');
  });
});
