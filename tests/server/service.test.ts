/**
 * Service users (SPEC 2.9, 6, 7.2; SECURITY.md test 20): staff mint a read-only link to one
 * applicant; `GET /service/tmp-pdf` answers that applicant's data only; expired, tampered and
 * foreign-tenant tokens answer 401 and reveal nothing; other methods are refused; the token never
 * reaches the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages, serviceMessages, serviceDataResponse } from '../../contract';
import { requestServiceLink } from '../../server/cli/serviceToken';
import { configFromEnv } from '../../server/config';
import {
  databaseKinds,
  registeredClient,
  startServer,
  type TestServer,
  logCollector,
} from './harness';

const SOUTH = 'southfield.test';
const NORTH_KEY = 'north-staff-key-0123456789abcdef0123456789';
const SOUTH_KEY = 'south-staff-key-0123456789abcdef0123456789';
const HOUR = 60 * 60 * 1000;

const tokenOf = (url: string) => new URL(url).searchParams.get('service_token') as string;

describe.each(databaseKinds)('service tokens on %s', (database) => {
  let server: TestServer;
  const lines: string[] = [];
  let applicantToken: string;

  async function mint(email: string, key = NORTH_KEY, host?: string) {
    return server
      .client(host)
      .request('POST', '/service/tokens', { email }, { authorization: `Bearer ${key}` });
  }

  beforeAll(async () => {
    const stream = logCollector(lines);
    server = await startServer({
      database,
      logStream: stream,
      env: { LOG_LEVEL: 'info', STAFF_API_KEYS: `northfield=${NORTH_KEY},southfield=${SOUTH_KEY}` },
      tenants: [
        {
          id: 'southfield',
          name: 'Southfield',
          definitionId: 'northfield-undergraduate',
          hosts: [SOUTH],
        },
      ],
    });
    const ada = await registeredClient(server, 'ada@example.com');
    await ada.put('/api/answer', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      ssn: '123-45-6789',
      gender: 'F',
      gender_desc: 'Female',
    });
    await ada.put('/api/add-another', { button_id: 'parent', num_components: 2 });
    const bob = await registeredClient(server, 'bob@example.com');
    await bob.put('/api/answer', { first_name: 'Bob' });
    await registeredClient(server, 'south@example.com', undefined, SOUTH);
    const minted = await mint('ada@example.com');
    expect(minted.status).toBe(200);
    applicantToken = tokenOf(minted.body.url as string);
  });
  afterAll(async () => server?.close());

  it('answers the applicant of the token, read-only data with the SSN masked, no-store', async () => {
    const response = await server.client().get(`/service/tmp-pdf?service_token=${applicantToken}`);
    expect(response.status).toBe(200);
    const data = serviceDataResponse.parse(response.body);
    expect(data.answer).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      gender_desc: 'Female',
    });
    expect(data.answer.ssn).toBe('***-**-6789');
    expect(JSON.stringify(response.body)).not.toContain('123-45');
    expect(data.add_another).toEqual({ parent: 2 });
    expect(data.tabs).toEqual({ transcript: 'upload' });
    expect(data.document_answer).toEqual({});
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
  });

  it('answers the page a service link opens with no-store and noindex', async () => {
    const page = await server.client().get(`/?service_token=${applicantToken}`);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('mints each link with its own token, valid for one hour, and the link points at the app', async () => {
    const again = await mint('ada@example.com');
    expect(again.body.url).toMatch(/^http:\/\/app\.test\/\?service_token=/);
    expect(tokenOf(again.body.url as string)).not.toBe(applicantToken);
    expect(new Date(again.body.expires_at as string).getTime() - server.clock.now().getTime()).toBe(
      HOUR,
    );
  });

  it('refuses an expired token with 401 and the same message as any bad token', async () => {
    const minted = await mint('ada@example.com');
    const token = tokenOf(minted.body.url as string);
    server.clock.advance(HOUR - 1000);
    expect((await server.client().get(`/service/tmp-pdf?service_token=${token}`)).status).toBe(200);
    server.clock.advance(2000);
    const expired = await server.client().get(`/service/tmp-pdf?service_token=${token}`);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ message: serviceMessages.tokenInvalid });
    server.clock.advance(-HOUR - 1000);
  });

  it('refuses a tampered token: another applicant id in the payload, a changed signature, garbage', async () => {
    const [body, signature] = applicantToken.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const longer = Buffer.from(
      JSON.stringify({ ...payload, e: (payload.e as number) + 10 * HOUR }),
    ).toString('base64url');
    const flipped = `${body}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const token of [
      `${longer}.${signature}`,
      flipped,
      'x',
      `${body}`,
      `${body}.${signature}.x`,
      '',
    ]) {
      const response = await server
        .client()
        .get(`/service/tmp-pdf?service_token=${encodeURIComponent(token)}`);
      expect(response.status, token).toBe(401);
      expect(response.body).toEqual({ message: serviceMessages.tokenInvalid });
    }
    const missing = await server.client().get('/service/tmp-pdf');
    expect(missing.status).toBe(401);
  });

  it("gives one applicant's token no way to another applicant's data", async () => {
    const bobLink = await mint('bob@example.com');
    const bob = await server
      .client()
      .get(`/service/tmp-pdf?service_token=${tokenOf(bobLink.body.url as string)}`);
    expect(bob.body.answer).toEqual({ first_name: 'Bob' });
    const ada = await server
      .client()
      .get(`/service/tmp-pdf?service_token=${applicantToken}&user=bob@example.com`);
    expect(ada.body.answer.first_name).toBe('Ada');
  });

  it("refuses a token on another tenant's host, and a staff key of one tenant on another", async () => {
    const foreign = await server
      .client(SOUTH)
      .get(`/service/tmp-pdf?service_token=${applicantToken}`);
    expect(foreign.status).toBe(401);
    expect(foreign.body).toEqual({ message: serviceMessages.tokenInvalid });
    expect((await mint('ada@example.com', SOUTH_KEY)).status).toBe(401);
    expect((await mint('ada@example.com', NORTH_KEY, SOUTH)).status).toBe(401);
    // The southern applicant is unknown to the northern staff key's tenant.
    expect((await mint('south@example.com')).status).toBe(404);
    const southLink = await mint('south@example.com', SOUTH_KEY, SOUTH);
    expect(southLink.status).toBe(200);
    const southToken = tokenOf(southLink.body.url as string);
    expect((await server.client().get(`/service/tmp-pdf?service_token=${southToken}`)).status).toBe(
      401,
    );
    expect(
      (await server.client(SOUTH).get(`/service/tmp-pdf?service_token=${southToken}`)).status,
    ).toBe(200);
  });

  it("revokes one link before it expires, in the staff member's tenant only", async () => {
    const first = await mint('ada@example.com');
    const second = await mint('ada@example.com');
    const read = (url: string) =>
      server.client().get(`/service/tmp-pdf?service_token=${tokenOf(url)}`);
    expect((await read(first.body.url as string)).status).toBe(200);
    // Another tenant's staff cannot revoke it.
    const foreign = await server
      .client(SOUTH)
      .request('DELETE', `/service/tokens/${first.body.id as string}`, undefined, {
        authorization: `Bearer ${SOUTH_KEY}`,
      });
    expect(foreign.status).toBe(200);
    expect((await read(first.body.url as string)).status).toBe(200);
    const unauthorized = await server
      .client()
      .request('DELETE', `/service/tokens/${first.body.id as string}`);
    expect(unauthorized.status).toBe(401);
    const revoked = await server
      .client()
      .request('DELETE', `/service/tokens/${first.body.id as string}`, undefined, {
        authorization: `Bearer ${NORTH_KEY}`,
      });
    expect(revoked.body).toEqual({ message: serviceMessages.revoked });
    const after = await read(first.body.url as string);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: serviceMessages.tokenInvalid });
    expect((await read(second.body.url as string)).status).toBe(200);
  });

  it('refuses staff calls without a valid bearer key', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${NORTH_KEY}`, NORTH_KEY]) {
      const response = await server
        .client()
        .request(
          'POST',
          '/service/tokens',
          { email: 'ada@example.com' },
          authorization ? { authorization } : {},
        );
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: serviceMessages.staffUnauthorized });
    }
  });

  it('is read-only: other methods on the service data are refused and change nothing', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await server
        .client()
        .request(method, `/service/tmp-pdf?service_token=${applicantToken}`, {
          first_name: 'Mallory',
        });
      expect([404, 405]).toContain(response.status);
    }
    const after = await server.client().get(`/service/tmp-pdf?service_token=${applicantToken}`);
    expect(after.body.answer.first_name).toBe('Ada');
    // The token is no session: the applicant API does not accept it.
    const api = await server.client().get(`/api/profile?service_token=${applicantToken}`);
    expect(api.status).toBe(401);
    expect(api.body).toEqual({ message: serverMessages.sessionRequired });
  });

  it('mints through the running server with the CLI function, which keeps its key in DATA_DIR', async () => {
    const config = configFromEnv({
      NODE_ENV: 'test',
      DATA_DIR: server.dataDir,
      PUBLIC_ORIGIN: 'http://app.test',
    });
    const minted = await requestServiceLink({
      config,
      email: 'ada@example.com',
      serverUrl: server.url,
    });
    expect(minted.via).toBe('server');
    const response = await server
      .client()
      .get(`/service/tmp-pdf?service_token=${tokenOf(minted.url)}`);
    expect(response.body.answer.first_name).toBe('Ada');
    await expect(
      requestServiceLink({ config, email: 'nobody@example.com', serverUrl: server.url }),
    ).rejects.toThrow(serviceMessages.noSuchApplicant);
  });

  it('never writes a token or an SSN to the log, but logs staff and applicant ids', async () => {
    const log = lines.join('\n');
    expect(log).not.toContain(applicantToken);
    expect(log).not.toContain(applicantToken.split('.')[1] as string);
    expect(log).not.toContain('123-45');
    expect(log).not.toContain('***-**');
    expect(log).not.toContain(NORTH_KEY);
    const read = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((l) => l.msg === 'service view read');
    expect(read).toMatchObject({ staff: 'staff:northfield', tenant: 'northfield' });
    expect(read?.applicant).toMatch(/^[0-9a-f-]{36}$/);
  });
});
