/**
 * The console's list follows every writer (D108, D129): a save of a name rebuilds the applicant's
 * row and its search words, a save of anything else moves only its last change, and a changed
 * address, a web status, a document and a submit each show. After every step the row is what a full
 * rebuild from the application makes of it, also after a burst of parallel saves of both kinds.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInTenant } from '../../server/db/tenantScope';
import { validApplication } from '../definitions/fixtures';
import { databaseKinds, registeredClient, startServer, type TestServer } from './harness';

interface ListedRow {
  name: string;
  sort_name: string;
  email: string;
  search: string;
  status: string;
  submitted_at: string | null;
  updated_at: string;
  documents: number;
  words: string[];
}

describe.each(databaseKinds)('the staff list follows its writers on %s', (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ database });
  });
  afterAll(async () => server?.close());

  const query = <T>(statement: ReturnType<typeof sql>) =>
    runInTenant('northfield', async () => {
      const result = (await server.built.database.db.execute(statement)) as unknown as {
        rows: T[];
      };
      return result.rows;
    });

  const userIdOf = async (email: string) =>
    (await query<{ id: string }>(sql`select id from users where email = ${email}`))[0]!.id;

  const listed = async (userId: string): Promise<ListedRow> => {
    const [row] = await query<ListedRow>(sql`select l.name, l.sort_name, l.email, l.search,
        l.status, l.submitted_at::text, l.updated_at::text, l.documents,
        array(select w.word from staff_listing_words w where w.tenant_id = l.tenant_id
          and w.user_id = l.user_id order by w.word) as words
      from staff_listing l where l.user_id = ${userId}`);
    return { ...row!, documents: Number(row!.documents) };
  };

  /** The row now, and the same row rebuilt from scratch from the application: they must agree. */
  const expectRebuildAgrees = async (userId: string) => {
    const kept = await listed(userId);
    await query(
      sql`select staff_listing_rebuild(a) from applications a where a.user_id = ${userId}`,
    );
    expect(kept).toEqual(await listed(userId));
    return kept;
  };

  it('names, other answers, the address, web statuses, documents and the submit', async () => {
    const email = 'follows@example.com';
    const client = await registeredClient(server, email);
    const userId = await userIdOf(email);

    server.clock.advance(60_000);
    expect(
      (await client.put('/api/answer', { first_name: 'Ada', last_name: 'Byron' })).status,
    ).toBe(200);
    let row = await expectRebuildAgrees(userId);
    expect(row).toMatchObject({ name: 'Ada Byron', sort_name: 'byron ada', status: 'started' });
    expect(row.words).toEqual(['ada', 'byron', 'com', 'example', 'follows']);
    const named = row.updated_at;

    // Another answer: the last change moves, nothing else does.
    server.clock.advance(60_000);
    expect((await client.put('/api/answer', { city: 'London' })).status).toBe(200);
    row = await expectRebuildAgrees(userId);
    expect(row.updated_at > named).toBe(true);
    expect(row).toMatchObject({
      name: 'Ada Byron',
      words: ['ada', 'byron', 'com', 'example', 'follows'],
    });

    // The same through a save with the version seen (its row lock is a write of the row too).
    server.clock.advance(60_000);
    const { body: profile } = await client.get('/api/profile');
    const saved = await client.request(
      'PUT',
      '/api/answer',
      { city: 'Paris' },
      {
        'if-match': `"${profile.version}"`,
      },
    );
    expect(saved.status).toBe(200);
    const since = (await expectRebuildAgrees(userId)).updated_at;
    expect(since > row.updated_at).toBe(true);

    // A middle name and a new last name: the row and its words (every name's) are rebuilt.
    expect(
      (await client.put('/api/answer', { middle_name: 'King', last_name: 'Lovelace' })).status,
    ).toBe(200);
    row = await expectRebuildAgrees(userId);
    expect(row).toMatchObject({ name: 'Ada King Lovelace', sort_name: 'lovelace ada' });
    expect(row.words).toEqual(['ada', 'com', 'example', 'follows', 'king', 'lovelace']);

    // A changed address (no route changes one; the trigger keeps the list right if a tool does).
    await query(sql`update users set email = 'countess@example.com' where id = ${userId}`);
    row = await expectRebuildAgrees(userId);
    expect(row.email).toBe('countess@example.com');
    expect(row.words).toEqual(['ada', 'com', 'countess', 'example', 'king', 'lovelace']);
    await query(sql`update users set email = ${email} where id = ${userId}`);

    expect((await client.post('/api/web-status', { web_status: 'validating' })).status).toBe(204);
    expect((await expectRebuildAgrees(userId)).status).toBe('validating');

    // A converted document (the documents suites cover uploads; here only its count matters), then
    // a save of another answer, which keeps it.
    await query(sql`insert into documents (tenant_id, user_id, question_key, file_key, file_name,
        file_size, answered, updated_at)
      values ('northfield', ${userId}, 'transcript_file', 'k', 't.png', 1, true, now())`);
    expect((await expectRebuildAgrees(userId)).documents).toBe(1);
    expect((await client.put('/api/answer', { city: 'Rome' })).status).toBe(200);
    expect((await expectRebuildAgrees(userId)).documents).toBe(1);
    await query(sql`delete from documents where user_id = ${userId}`);
    expect((await expectRebuildAgrees(userId)).documents).toBe(0);

    server.clock.advance(60_000);
    expect((await client.put('/api/answer', validApplication)).status).toBe(200);
    expect((await client.post('/api/submit')).status).toBe(200);
    row = await expectRebuildAgrees(userId);
    expect(row.status).toBe('submitted');
    expect(row.submitted_at).not.toBeNull();
  });

  it('a burst of parallel saves of names and of other answers leaves the row a rebuild makes', async () => {
    const email = 'burst.follows@example.com';
    const client = await registeredClient(server, email);
    const userId = await userIdOf(email);
    // Rounds of parallel saves, the clock moving between them, so the last change moves too.
    for (let round = 0; round < 4; round++) {
      server.clock.advance(60_000);
      const saves = Array.from({ length: 10 }, (_, i) =>
        client.put(
          '/api/answer',
          i % 3 === 0 ? { last_name: `Name${round}${i}` } : { city: `${i}` },
        ),
      );
      for (const response of await Promise.all(saves)) expect(response.status).toBe(200);
    }
    const row = await expectRebuildAgrees(userId);
    const [application] = await query<{ last_name: string; updated_at: string }>(
      sql`select answers->>'last_name' as last_name, updated_at::text from applications where user_id = ${userId}`,
    );
    expect(row.name).toBe(application!.last_name);
    expect(row.updated_at).toBe(application!.updated_at);
  });
});
