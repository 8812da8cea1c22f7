/**
 * Statements each kind of request sends to the database (D122, D123): every statement a
 * request costs holds a pool connection for a round trip, so these counts must not grow back. They
 * include transaction control and the connection's tenant setting; one request at a time, after a
 * first round that warms the pool, with the job worker stopped (its polls are not the request's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validApplication } from '../definitions/fixtures';
import { databaseKinds, PASSWORD, registeredClient, startServer, type TestServer } from './harness';
import { countStatements } from './statementCounter';

/** The most statements each request kind may send (the login with the right password). */
const BUDGET = {
  login: 2,
  autosave: 2,
  autosaveSince: 2,
  read: 2,
  // The receipt is a job of its own (D138).
  submit: 7,
  pdfStatus: 2,
} as const;

describe.each(databaseKinds)('statements per request on %s', (database) => {
  let server: TestServer;
  const counts: Record<keyof typeof BUDGET, number[]> = {
    login: [],
    autosave: [],
    autosaveSince: [],
    read: [],
    submit: [],
    pdfStatus: [],
  };

  beforeAll(async () => {
    server = await startServer({ database });
    // Both accounts first: their confirmation codes are mailed by the job worker (D138).
    const applicants = [];
    for (const round of [1, 2]) {
      const email = `statements.${round}@example.com`;
      const client = await registeredClient(server, email);
      await client.put('/api/answer', { city: 'first' });
      applicants.push({ email, client });
    }
    await server.built.documents.queue.stop();
    // Twice: the first round warms the pool (each new connection takes its tenant once).
    for (const { email, client } of applicants) {
      const counter = countStatements(server.built.database);
      const measure = async (kind: keyof typeof BUDGET, run: () => Promise<{ status: number }>) => {
        const before = counter.count();
        const response = await run();
        expect(response.status, kind).toBeLessThan(300);
        counts[kind].push(counter.count() - before);
      };
      try {
        await measure('login', () =>
          client.post('/public/login', { username: email, password: PASSWORD }),
        );
        await measure('autosave', () => client.put('/api/answer', { city: 'second' }));
        await measure('read', () => client.get('/api/profile'));
        // The app's own saves carry the version it last saw (If-Match, REQ-R-2).
        const { version } = (await client.get('/api/profile')).body as { version: number };
        await measure('autosaveSince', () =>
          client.request('PUT', '/api/answer', { city: 'third' }, { 'if-match': `"${version}"` }),
        );
        await client.put('/api/answer', validApplication);
        await measure('submit', () => client.post('/api/submit'));
        await client.get('/api/pdf');
        await measure('pdfStatus', () => client.get('/api/pdf'));
      } finally {
        counter.stop();
      }
    }
  });
  afterAll(async () => server?.close());

  it.each(Object.keys(BUDGET) as (keyof typeof BUDGET)[])(
    '%s stays within its budget of statements',
    (kind) => {
      const counted = counts[kind][1] as number;
      console.log(`${database}: ${kind} ${counts[kind].join(' then ')} statements`);
      expect(counted).toBeGreaterThan(0);
      expect(counted).toBeLessThanOrEqual(BUDGET[kind]);
    },
  );
});
