/**
 * `npm start`'s two colleges (server/exampleTenants.ts): started together, each serves its lookups.
 * Riverside's form asks no question the bundled sample lists fit, so its samples are left out with a
 * warning, and Northfield's are seeded and searched as ever (a failed sample once failed both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleTenants } from '../../server/exampleTenants';
import { logCollector, startServer, type TestServer } from './harness';

describe('the example colleges started together', () => {
  let server: TestServer;
  const lines: string[] = [];

  beforeAll(async () => {
    const { tenants, definitions } = exampleTenants();
    expect(tenants.map((tenant) => tenant.id)).toEqual(['riverside']);
    server = await startServer({
      tenants: tenants.map((tenant) => ({ ...tenant, hosts: [...tenant.hosts] })),
      definitions,
      env: { LOG_LEVEL: 'warn' },
      logStream: logCollector(lines),
    });
  });
  afterAll(async () => server?.close());

  it('serves Northfield its sample lists and Riverside its lookups, refusing nothing', async () => {
    const find = (host?: string) =>
      server.client(host).get('/lookup/find?category=hs_ceeb&text=lin');
    const north = await find();
    expect(north.status, north.text).toBe(200);
    expect(JSON.stringify(north.body)).toContain('(sample)');
    const river = await find('riverside.localhost');
    expect(river.status, river.text).toBe(200);
    await expect
      .poll(() => lines.join('\n'))
      .toMatch(/"tenant":"riverside".*"sample lookup list left out"/);
    expect(lines.join('\n')).not.toContain('seeding the sample lookup lists failed');
  });
});
