/**
 * Addresses in the log (D151): known applicant and staff addresses go through the account
 * routes, the staff sign-in and a service view read; no log line holds one in clear, and their
 * pseudonyms are keyed: not the unkeyed hash a list of addresses reverses, not the same under
 * another server's key.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressHash } from '../../server/security/events';
import {
  databaseKinds,
  logCollector,
  PASSWORD,
  registeredClient,
  startServer,
  type TestServer,
} from '../server/harness';
import { enrolledStaff } from '../server/staffHelpers';

const APPLICANT = 'known.applicant@example.com';
const STAFF = 'known.dean@northfield.edu';
const STRANGER = 'known.stranger@example.com';
const tokenOf = (url: string) => new URL(url).searchParams.get('service_token') as string;

/** The pseudonym the log used before D151: sha256 of the address, unkeyed, truncated. */
const unkeyed = (address: string) =>
  createHash('sha256').update(`address:${address.toLowerCase()}`).digest('hex').slice(0, 16);

describe.each(databaseKinds)('addresses in the log on %s', (database) => {
  let server: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    server = await startServer({
      database,
      env: { LOG_LEVEL: 'info' },
      logStream: logCollector(lines),
    });
  });
  afterAll(async () => server?.close());

  it('never holds an address in clear, and names them by keyed pseudonyms only', async () => {
    const applicant = await registeredClient(server, APPLICANT);
    const anonymous = server.client();
    const wrong = { password: `${PASSWORD}-wrong` };
    for (const username of [APPLICANT, STRANGER]) {
      await anonymous.post('/public/login', { username, ...wrong });
      await anonymous.post('/public/forgot-password', { username });
      await anonymous.post('/public/confirm', { username, code: '000000' });
      await anonymous.post('/public/resend-confirm', { username });
    }
    const staff = await enrolledStaff(server, STAFF, 'admin');
    await anonymous.post('/staff/api/login', { email: STAFF, ...wrong });
    await applicant.put('/api/answer', { first_name: 'Known' });
    const list = await staff.client.get<{ rows: { id: string }[] }>('/staff/api/applications');
    const id = list.body.rows[0]?.id as string;
    const link = await staff.client.post(`/staff/api/applications/${id}/links`, {});
    expect(link.status).toBe(200);
    const read = await anonymous.get(
      `/service/tmp-pdf?service_token=${encodeURIComponent(tokenOf(link.body.url as string))}`,
    );
    expect(read.status).toBe(200);

    const raw = lines.join('\n');
    const log = raw.toLowerCase();
    expect(log).toContain('service view read');
    for (const address of [APPLICANT, STAFF, STRANGER]) {
      expect(log, address).not.toContain(address.toLowerCase());
      expect(log, address).not.toContain(unkeyed(address));
    }
    const key = server.built.app.logPseudonymKey;
    expect(raw).toContain(addressHash(key, STRANGER));
    expect(raw).toContain(addressHash(key, STAFF));
  });

  it('gives another server (another key) other pseudonyms', async () => {
    const other = await startServer({ database });
    try {
      const mine = addressHash(server.built.app.logPseudonymKey, APPLICANT);
      expect(addressHash(other.built.app.logPseudonymKey, APPLICANT)).not.toBe(mine);
      expect(addressHash(server.built.app.logPseudonymKey, APPLICANT.toUpperCase())).toBe(mine);
    } finally {
      await other.close();
    }
  });
});
