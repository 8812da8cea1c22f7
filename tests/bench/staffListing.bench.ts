/**
 * Staff listing benchmark (D107, D108): every listing query of the console (first and last
 * page, a page after a cursor, each sort, each status, a date range, one- and two-word searches, a
 * reference, broad searches whose many rows are ranked, D146) on
 * 50,000 generated applications, timed as the server runs it (`listApplications`: the page and its
 * counts), beside the same queries with index scans turned off in the same run (the baseline: what
 * the list's indexes buy). PostgreSQL when TEST_DATABASE_URL is set, else PGlite (the search's
 * index of words is a B-tree on both, D126).
 * Target: the median of each listing query, every search included, under 100 ms on PostgreSQL (a
 * one-letter search is not ranked, D199).
 */
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { applicationQuery } from '../../contract/staff';
import { openDatabase, type Database } from '../../server/db/client';
import { runInTenant } from '../../server/db/tenantScope';
import { applicationReference } from '../../server/applicationPdf';
import { listApplications } from '../../server/staff/applicationList';
import { generateApplications, SEASON } from './season';

const GENERATED = SEASON.applications;
const RUNS = 7;
const TARGET_MS = 100;

async function generate(db: Database) {
  await db.execute(
    sql`insert into tenants (id, name, definition_id) values ('bench', 'Bench', 'northfield-undergraduate') on conflict do nothing`,
  );
  await generateApplications(db, 'bench', GENERATED);
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function runStaffListingBench(): Promise<{ ok: boolean; lines: string[] }> {
  const url = process.env.TEST_DATABASE_URL;
  const handle = await openDatabase(
    url ? { databaseUrl: url, queryTimeoutMs: 120_000 } : { pglite: new PGlite() },
  );
  const db = handle.db;
  const lines: string[] = [`${handle.kind}, ${GENERATED.toLocaleString('en-US')} applications`];
  let ok = true;
  try {
    await generate(db);
    const list = (query: Record<string, string>) =>
      runInTenant('bench', () =>
        listApplications(db, 'bench', applicationQuery.parse(query), 'UTC'),
      );
    const first = await list({});
    const byName = await list({ sort: 'name', dir: 'asc' });
    const cases: [string, Record<string, string>][] = [
      ['first page', {}],
      ['page after a cursor', { after: first.last ?? '' }],
      ['last page', { last: '1' }],
      ['page before the last', { before: (await list({ last: '1' })).first ?? '' }],
      ['sort by name, page 2', { sort: 'name', dir: 'asc', after: byName.last ?? '' }],
      ['sort by e-mail', { sort: 'email', dir: 'asc' }],
      ['sort by status', { sort: 'status' }],
      ['sort by submitted', { sort: 'submitted' }],
      ['sort by documents', { sort: 'documents' }],
      ['status submitted', { status: 'submitted' }],
      ['status validating', { status: 'validating' }],
      ['status started', { status: 'started' }],
      ['submitted in January', { from: '2026-01-01', to: '2026-01-31' }],
      ['one-word search (name)', { q: 'hopper12' }],
      ['one-word search (e-mail)', { q: 'gen4999' }],
      ['two-word search', { q: 'grace hopper1' }],
      ['reference search', { q: applicationReference(first.rows[0]!.id) }],
      ["one-letter search (in the list's order, 20,000 found, D199)", { q: 'a' }],
      ['two-letter search (ranked)', { q: 'gr' }],
      ['whole-word search (ranked, 10,000 found)', { q: 'grace' }],
    ];
    for (const [label, query] of cases) {
      const indexed: number[] = [];
      const scanned: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        let started = performance.now();
        const page = await list(query);
        indexed.push(performance.now() - started);
        // The baseline: the same statements with index scans off, in one transaction.
        started = performance.now();
        await runInTenant('bench', () =>
          db.transaction(async (tx) => {
            await tx.execute(sql`set local enable_indexscan = off`);
            await tx.execute(sql`set local enable_bitmapscan = off`);
            await tx.execute(sql`set local enable_indexonlyscan = off`);
            await listApplications(
              tx as unknown as Database,
              'bench',
              applicationQuery.parse(query),
              'UTC',
            );
          }),
        );
        scanned.push(performance.now() - started);
        if (run === 0 && label === 'first page' && page.rows.length === 0) ok = false;
      }
      const ms = median(indexed);
      const base = median(scanned);
      if (ms >= TARGET_MS) ok = false;
      lines.push(
        `${label}: ${ms.toFixed(1)} ms (baseline without indexes ${base.toFixed(1)} ms, ×${(base / ms).toFixed(1)})${ms >= TARGET_MS ? ' OVER TARGET' : ''}`,
      );
    }
  } finally {
    await handle.close();
  }
  return { ok, lines };
}
