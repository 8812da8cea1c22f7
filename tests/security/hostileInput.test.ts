/**
 * D75: hostile bytes through every route the server has (read from the app itself, so a new
 * route is covered without editing this file): NUL bytes, lone surrogates, invalid UTF-8, over-long
 * values and parameters, malformed multipart and bad boundaries, malformed HTTP. Every answer is a
 * 4xx with the product's message (never a 500), and no log line, at any level, carries a value sent.
 */
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC_ERROR_MESSAGE, PDF_DOWNLOAD_PARAM, SERVICE_TOKEN_PARAM } from '../../contract';
import {
  databaseKinds,
  registeredClient,
  startServer,
  type Client,
  type TestServer,
  logCollector,
} from '../server/harness';
import { encodeKeepingSurrogates as encode, expectNotLogged, hostileValues, mark } from './helpers';

const STAFF_KEY = 's'.repeat(40);

/** The walk's values, and one shaped like an SSN, which applicants' answers hold. */
const applicantValues = () => [...hostileValues(), `078-05-1120-${mark()}`];

/** The query parameters any route reads, each given the hostile value. */
const QUERY_NAMES = [
  'token',
  SERVICE_TOKEN_PARAM,
  PDF_DOWNLOAD_PARAM,
  'text',
  'id',
  'category',
  'max_results',
  'q',
];

/** The body fields any JSON route reads, each given the hostile value. */
const BODY_NAMES = [
  'username',
  'password',
  'password2',
  'code',
  'token',
  'id',
  'email',
  'web_status',
  'last_page',
  'buttonId',
  'numComponents',
  'tabId',
  'chosenTab',
  'answer_key',
  'file_name',
  'ssn',
  'first_name',
  'birth_date',
];

function urlFor(route: string, value: string): string {
  const path = route
    .split('/')
    .map((segment) => (segment.startsWith(':') || segment === '*' ? encode(value) : segment))
    .join('/');
  const query = QUERY_NAMES.map((name) => `${name}=${encode(value)}`).join('&');
  return `${path}?${query}`;
}

function jsonBodies(value: string): string[] {
  const flat = Object.fromEntries(BODY_NAMES.map((name) => [name, value]));
  return [
    JSON.stringify(flat),
    JSON.stringify({ answers: flat }),
    JSON.stringify({ ssn: value, [value]: value }),
    // Values of the wrong type for a text key, and hostile text for a date key (an ISO date only).
    JSON.stringify({ first_name: [value], last_name: { value }, birth_date: value }),
  ];
}

const INVALID_UTF8 = Buffer.from([
  0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d,
]);

const MULTIPART_BODIES = (value: string): [string, string][] => [
  [
    'multipart/form-data',
    `--x\r\nContent-Disposition: form-data; name="key"\r\n\r\n${value}\r\n--x--`,
  ],
  ['multipart/form-data; boundary=', `--\r\n\r\n${value}`],
  [
    'multipart/form-data; boundary=abc',
    `--zzz\r\nContent-Disposition: form-data; name="file"; filename="${value}"\r\n\r\n${value}`,
  ],
  [
    'multipart/form-data; boundary=abc',
    `--abc\r\nContent-Disposition: form-data; name="key"\r\n\r\n${value}`,
  ],
  [
    'multipart/form-data; boundary=abc',
    `--abc\r\nContent-Disposition: form-data; name="file"; filename="${value}.png"\r\nContent-Type: image/png\r\n\r\n${value}\r\n--abc--`,
  ],
  [`multipart/form-data; boundary="${'b'.repeat(300)}"`, `--${'b'.repeat(300)}\r\n\r\n${value}`],
];

/** Sends raw bytes over a socket (requests no HTTP client would send); resolves with the status. */
function rawRequest(port: number, bytes: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
    socket.on('error', () => undefined);
  });
}

describe.each(databaseKinds)('D75 hostile input on every route, on %s', (database) => {
  let server: TestServer;
  let user: Client;
  const lines: string[] = [];
  const sent: string[] = [];

  beforeAll(async () => {
    const stream = logCollector(lines);
    server = await startServer({
      database,
      env: {
        NODE_ENV: 'production',
        // Production refuses an http: origin off this machine (D132).
        PUBLIC_ORIGIN: 'http://localhost',
        LOG_LEVEL: 'trace',
        STAFF_API_KEYS: `northfield=${STAFF_KEY}`,
      },
      config: { publicRateLimit: 1_000_000, lookupRateLimit: 1_000_000 },
      logStream: stream,
    });
    user = await registeredClient(server, `hostile.${database}@example.com`);
  });
  afterAll(async () => server?.close());

  /** Every answer to bad input: 4xx with a product message, or a 2xx that ignored it. */
  const expectHandled = (label: string, status: number, body: unknown, method: string) => {
    expect(status, label).toBeGreaterThanOrEqual(200);
    expect(status, label).toBeLessThan(500);
    if (status >= 400 && method !== 'HEAD') {
      const message = (body as { message?: unknown }).message;
      expect(typeof message, label).toBe('string');
      expect(message, label).not.toBe(GENERIC_ERROR_MESSAGE);
    }
  };

  it('every route answers hostile paths, queries and JSON bodies with a 4xx and its message, anonymous and logged in', async () => {
    const routes = server.built.routes.filter((route) => route.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(25);
    const clients: [string, Client][] = [
      ['anonymous', server.client()],
      ['applicant', user],
    ];
    let requests = 0;
    for (const value of applicantValues()) {
      sent.push(value);
      for (const route of routes)
        for (const [who, client] of clients) {
          // The applicant stays logged in for the whole walk; logout is walked anonymously.
          if (who === 'applicant' && /\/logout(\/|$)/.test(route.url)) continue;
          const url = urlFor(route.url, value);
          const headers = {
            authorization: `Bearer ${STAFF_KEY}`,
            'if-match': value.slice(0, 100).replace(/[^\x20-\x7e]/g, '?'),
          };
          const bodies =
            route.method === 'GET' || route.method === 'HEAD' ? [undefined] : jsonBodies(value);
          for (const body of bodies) {
            const response = await client.request(route.method, url, body, headers);
            requests++;
            expectHandled(
              `${who} ${route.method} ${route.url} ${body?.slice(0, 60) ?? ''}`,
              response.status,
              response.body,
              route.method,
            );
          }
          if (route.method !== 'GET' && route.method !== 'HEAD') {
            for (const [type, multipart] of MULTIPART_BODIES(value)) {
              const response = await client.request(route.method, url, multipart, {
                ...headers,
                'content-type': type,
              });
              requests++;
              expectHandled(
                `${who} ${route.method} ${route.url} multipart ${type}`,
                response.status,
                response.body,
                route.method,
              );
            }
            const invalid = await client.request(
              route.method,
              url,
              INVALID_UTF8.toString('latin1'),
              headers,
            );
            requests++;
            expectHandled(
              `${who} ${route.method} ${route.url} invalid UTF-8`,
              invalid.status,
              invalid.body,
              route.method,
            );
          }
        }
    }
    console.info(`[D75 ${database}] ${routes.length} routes, ${requests} hostile requests, no 5xx`);
  }, 600_000);

  it('malformed HTTP (bytes outside the header grammar, a header over the limit) is a 4xx', async () => {
    const port = Number(new URL(server.url).port);
    const value = `bad\u0001${mark()}`;
    sent.push(value);
    expect(
      await rawRequest(
        port,
        Buffer.from(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: ${value}\r\n\r\n`, 'latin1'),
      ),
    ).toBe(400);
    const big = `${mark()}${'c'.repeat(20_000)}`;
    sent.push(big);
    expect(
      await rawRequest(
        port,
        Buffer.from(`GET /healthz HTTP/1.1\r\nHost: x\r\nCookie: session=${big}\r\n\r\n`, 'latin1'),
      ),
    ).toBe(431);
  });

  it('a database error on a save answers 500 and logs its type and code, never the answers (the SSN) sent', async () => {
    const db = server.built.database.db;
    await db.execute(
      sql`create function fail_application_write() returns trigger language plpgsql as $$ begin raise exception 'refused by test'; end $$`,
    );
    await db.execute(
      sql`create trigger fail_application_write before insert or update on applications for each row execute function fail_application_write()`,
    );
    try {
      const ssn = `219-09-${String(1000 + Math.floor(Math.random() * 8999))}`;
      const name = mark();
      sent.push(ssn, name);
      const applicant = await registeredClient(server, `database-error.${database}@example.com`);
      const response = await applicant.put('/api/answer', { ssn, first_name: name });
      expect(response).toMatchObject({ status: 500, body: { message: GENERIC_ERROR_MESSAGE } });
      const failure = lines
        .map((line) => JSON.parse(line) as Record<string, any>)
        .find((entry) => entry.msg === 'request failed');
      expect(failure?.err?.type).toBeTruthy();
      expect(failure?.err?.stack).toMatch(/^\s+at /);
    } finally {
      await db.execute(sql`drop trigger fail_application_write on applications`);
      await db.execute(sql`drop function fail_application_write()`);
    }
  });

  it('no log line, at any level, carries a value that was sent', () =>
    expectNotLogged(sent, lines, 1000));
});
