/**
 * Drops a test database. FORCE ends the test's own leftover sessions, but refuses (42501) while an
 * autovacuum worker is in the database: it runs as the superuser, whom the test role may not end.
 * A plain DROP stops autovacuum itself, and still fails if a session of the product were left open.
 */
export async function dropDatabase(
  query: (statement: string) => Promise<unknown>,
  name: string,
): Promise<void> {
  try {
    await query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
    await query(`DROP DATABASE IF EXISTS ${name}`);
  }
}
