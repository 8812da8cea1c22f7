/**
 * D170: the database's functions and triggers have one source, server/db/sql/*.sql, the current
 * text. After the migrations the database holds exactly the functions and triggers those files
 * name, and applying the files again changes none of their definitions: a change to the source
 * without a migration that applies it (or the reverse) fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, openTestDatabase } from './harness';

const SOURCES = path.resolve(import.meta.dirname, '../../server/db/sql');
const sources = readdirSync(SOURCES)
  .filter((file) => file.endsWith('.sql'))
  .map((file) => readFileSync(path.join(SOURCES, file), 'utf8'));
const statements = sources.flatMap((text) =>
  text.split('--> statement-breakpoint').filter((part) => /\bCREATE\b/.test(part)),
);
const declared = (kind: 'FUNCTION' | 'TRIGGER') =>
  statements
    .map((part) => new RegExp(`CREATE OR REPLACE ${kind} "([a-z_]+)"`).exec(part)?.[1])
    .filter((name): name is string => name !== undefined)
    .sort();

type Database = Awaited<ReturnType<typeof openTestDatabase>>;

/** The definitions of the schema's own functions (not an extension's) and triggers, by name. */
async function definitions(database: Database): Promise<Record<string, string>> {
  const result = (await database.handle.db.execute(sql`
    select p.proname as name, pg_get_functiondef(p.oid) as definition from pg_proc p
      where p.pronamespace = 'public'::regnamespace and p.prokind = 'f'
      and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass
        and d.objid = p.oid and d.deptype = 'e')
    union all
    select t.tgname, pg_get_triggerdef(t.oid) from pg_trigger t
      join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = 'public'::regnamespace and not t.tgisinternal`)) as unknown as {
    rows: { name: string; definition: string }[];
  };
  return Object.fromEntries(result.rows.map((row) => [row.name, row.definition]));
}

describe.each(databaseKinds)('the database functions and triggers on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.handle.close();
    await database.drop();
  });

  it('are exactly those the sources name', async () => {
    const names = Object.keys(await definitions(database)).sort();
    expect(names).toEqual([...declared('FUNCTION'), ...declared('TRIGGER')].sort());
    expect(declared('FUNCTION').length).toBeGreaterThan(0);
  });

  it('are the sources as they stand: applying them again changes nothing', async () => {
    const migrated = await definitions(database);
    for (const statement of statements) await database.handle.db.execute(sql.raw(statement));
    expect(await definitions(database)).toEqual(migrated);
  });
});
