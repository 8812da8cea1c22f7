/**
 * Starts the real server (buildServer) on a free port over a fresh database, with a fake clock and
 * the outbox in a temporary directory; `Client` keeps cookies like a browser.
 */
import { PassThrough } from 'node:stream';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { and, count, eq, inArray, lte, or } from 'drizzle-orm';
import { inject } from 'vitest';
import { buildServer, type BuiltServer } from '../../server/app';
import { configFromEnv, type ServerConfig } from '../../server/config';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { ACCOUNT_REQUEST_JOB } from '../../server/account';
import { jobs } from '../../server/db/schema';
import { MAIL_JOB } from '../../server/mail/mailJobs';
import type { Definition } from '../../runtime';
import { dropDatabase } from './dropDatabase';

export type DatabaseKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const databaseKinds: DatabaseKind[] = inject('postgresTemplate')
  ? ['pglite', 'postgres']
  : ['pglite'];

export class Clock {
  constructor(public current = new Date('2026-11-02T15:00:00Z')) {}
  now = (): Date => new Date(this.current.getTime());
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** PostgreSQL connection tweaks for fault tests: reach it through a proxy, time queries out sooner. */
export interface PostgresOptions {
  readonly rewriteUrl?: (url: URL) => URL;
  readonly queryTimeoutMs?: number;
}

export async function openTestDatabase(
  kind: DatabaseKind,
  postgres: PostgresOptions = {},
): Promise<{ handle: DatabaseHandle; url?: string; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dump = await readFile(inject('pgliteDump'));
    const pglite = new PGlite({ loadDataDir: new Blob([dump]) });
    const handle = await openDatabase({ pglite, migrated: true });
    return { handle, drop: async () => undefined };
  }
  const url = process.env.TEST_DATABASE_URL as string;
  const name = `admission_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
  await admin.end();
  const databaseUrl = new URL(url);
  databaseUrl.pathname = `/${name}`;
  const handle = await openDatabase({
    databaseUrl: (postgres.rewriteUrl?.(databaseUrl) ?? databaseUrl).toString(),
    migrated: true,
    queryTimeoutMs: postgres.queryTimeoutMs,
  });
  return {
    handle,
    url: databaseUrl.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      try {
        await dropDatabase((statement) => dropper.query(statement), name);
      } finally {
        await dropper.end();
      }
    },
  };
}

export interface TestServer {
  readonly url: string;
  readonly clock: Clock;
  readonly built: BuiltServer;
  readonly dataDir: string;
  /** PostgreSQL: the URL of the test's own database (as the test role); undefined on PGlite. */
  readonly databaseUrl: string | undefined;
  client(host?: string): Client;
  /**
   * Waits (up to 15 s) until no mail or account request is due or running: what the requests so
   * far left to the worker is done (D138, D193).
   */
  settled(): Promise<void>;
  /** Every message in the outbox so far (once settled). */
  outbox(): Promise<OutboxMessage[]>;
  /** Waits for the newest message to an address whose subject contains `subject`. */
  mail(to: string, subject: string, options?: { after?: number }): Promise<OutboxMessage>;
  close(): Promise<void>;
}

export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The same for every try of one event's mail (D138). */
  messageId?: string;
  sentAt: string;
}

export interface StartOptions {
  readonly database?: DatabaseKind;
  readonly config?: Partial<ServerConfig>;
  readonly tenants?: { id: string; name: string; definitionId: string; hosts: string[] }[];
  readonly env?: Record<string, string>;
  readonly logStream?: NodeJS.WritableStream;
  readonly postgres?: PostgresOptions;
  /** Definitions the extra tenants may use beyond the platform's own. */
  readonly definitions?: readonly Definition[];
  /** PGlite only: the embedded database in DATA_DIR/pgdata, migrated afresh, as `npm start` has it. */
  readonly onDisk?: boolean;
}

/** How long reading the outbox waits for the mail jobs due (a PDF may be printing before them). */
const MAIL_WAIT_MS = 15_000;

/** Cheap hashing in tests (production keeps m = 19 MiB, t = 2; a test below checks the stored parameters). */
export const TEST_ARGON2 = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const clock = new Clock();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-server-'));
  const {
    handle,
    url: databaseUrl,
    drop,
  } = options.onDisk
    ? { handle: await openDatabase({ dataDir }), url: undefined, drop: async () => undefined }
    : await openTestDatabase(options.database ?? 'pglite', options.postgres);
  const config = configFromEnv(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PUBLIC_ORIGIN: 'http://app.test',
      // The browser the run uses (`CHROMIUM_PATH=bundled`: the one inside @sparticuz/chromium).
      ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
      ...options.env,
    },
    {
      now: clock.now,
      argon2: TEST_ARGON2,
      publicRateLimit: 1000,
      // No app to serve unless a test builds one: a `dist/client` left by `npm start` must not
      // turn the API's 404s into the app's index page.
      clientDir: path.join(dataDir, 'no-client'),
      ...options.config,
    },
  );
  const built = await buildServer(config, {
    database: handle,
    tenants: options.tenants,
    definitions: options.definitions,
    logStream: options.logStream,
  });
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const address = built.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const outboxFile = path.join(dataDir, 'outbox.jsonl');

  // Mail goes out through the job queue (D138), queued by a request or by the account request it
  // queued (D193): the outbox is read once no such job is due or running, so a count right after a
  // request sees that request's mail, and an account it asked for is there.
  const mailDue = async () => {
    const [row] = await handle.db
      .select({ due: count() })
      .from(jobs)
      .where(
        and(
          inArray(jobs.kind, [MAIL_JOB, ACCOUNT_REQUEST_JOB]),
          or(
            eq(jobs.status, 'running'),
            and(eq(jobs.status, 'queued'), lte(jobs.runAfter, clock.now())),
          ),
        ),
      );
    return row?.due ?? 0;
  };
  const settled = async () => {
    const waitUntil = Date.now() + MAIL_WAIT_MS;
    while ((await mailDue()) > 0 && Date.now() < waitUntil)
      await new Promise((resolve) => setTimeout(resolve, 10));
  };
  const outbox = async (): Promise<OutboxMessage[]> => {
    await settled();
    try {
      const text = await readFile(outboxFile, 'utf8');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as OutboxMessage);
    } catch {
      return [];
    }
  };

  return {
    url,
    clock,
    built,
    dataDir,
    databaseUrl,
    client: (host?: string) => new Client(url, host),
    settled,
    outbox,
    async mail(to, subject, { after = 0 } = {}) {
      for (let attempt = 0; attempt < 100; attempt++) {
        const found = (await outbox())
          .slice(after)
          .filter((m) => m.to === to && m.subject.includes(subject));
        if (found.length > 0) return found[found.length - 1] as OutboxMessage;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`No mail to ${to} about "${subject}"`);
    },
    async close() {
      await built.app.close();
      await handle.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Response<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
  readonly text: string;
  /** The body as received (binary responses such as a PDF). */
  readonly bytes: Buffer;
}

/** A browser-like client: keeps cookies, sends JSON, optionally as another host name. */
export class Client {
  readonly cookies = new Map<string, string>();
  readonly setCookieHeaders: string[] = [];

  constructor(
    private readonly base: string,
    private readonly host?: string,
  ) {}

  /**
   * Sends through node:http, not fetch: fetch drops a Host header, and tenants are chosen by host.
   */
  async request<T = Record<string, any>>(
    method: string,
    pathname: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response<T>> {
    const payload =
      body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const allHeaders: Record<string, string> = { ...headers };
    if (this.host) allHeaders.host = this.host;
    if (payload !== undefined) {
      if (!('content-type' in allHeaders)) allHeaders['content-type'] = 'application/json';
      allHeaders['content-length'] = String(Buffer.byteLength(payload));
    }
    if (this.cookies.size > 0)
      allHeaders.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const { status, rawHeaders, bytes } = await new Promise<{
      status: number;
      rawHeaders: string[];
      bytes: Buffer;
    }>((resolve, reject) => {
      const request = http.request(
        new URL(pathname, this.base),
        { method, headers: allHeaders },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              rawHeaders: response.rawHeaders,
              bytes: Buffer.concat(chunks),
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
    const text = bytes.toString('utf8');
    const responseHeaders = new Headers();
    for (let i = 0; i < rawHeaders.length; i += 2)
      responseHeaders.append(rawHeaders[i] as string, rawHeaders[i + 1] as string);
    for (const line of responseHeaders.getSetCookie()) {
      this.setCookieHeaders.push(line);
      const [pair] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      const value = rest.join('=');
      if (!name) continue;
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line))
        this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = text;
    }
    return { status, body: parsed as T, headers: responseHeaders, text, bytes };
  }

  get = <T = Record<string, any>>(pathname: string) => this.request<T>('GET', pathname);
  post = <T = Record<string, any>>(pathname: string, body: unknown = {}) =>
    this.request<T>('POST', pathname, body);
  put = <T = Record<string, any>>(pathname: string, body: unknown) =>
    this.request<T>('PUT', pathname, body);
}

export const PASSWORD = 'Correct-Horse-42';

/** Signs up, confirms with the code from the outbox, and logs in; returns the logged-in client. */
export async function registeredClient(
  server: TestServer,
  email: string,
  password = PASSWORD,
  host?: string,
): Promise<Client> {
  const client = server.client(host);
  const before = (await server.outbox()).length;
  const signup = await client.post('/public/signup', { username: email, password });
  if (signup.status !== 200) throw new Error(`signup failed: ${signup.status} ${signup.text}`);
  const mail = await server.mail(email, 'confirmation code', { after: before });
  const code = /(\d{6})/.exec(mail.text)?.[1];
  const confirmed = await client.post('/public/confirm', { username: email, code });
  if (confirmed.status !== 200)
    throw new Error(`confirm failed: ${confirmed.status} ${confirmed.text}`);
  const login = await client.post('/public/login', { username: email, password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return client;
}

/**
 * The newest confirmation code mailed to `email` in the outbox of a data directory (for servers run
 * as separate processes, which the in-process `TestServer.mail` cannot reach).
 */
export async function outboxCode(dataDir: string, email: string): Promise<string> {
  // The worker process polls the queue once a second (D98, D138); on a loaded machine it may take a
  // while to start, so up to a minute.
  for (let attempt = 0; attempt < 1200; attempt++) {
    const text = await readFile(path.join(dataDir, 'outbox.jsonl'), 'utf8').catch(() => '');
    const code = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as OutboxMessage)
      .filter((mail) => mail.to === email)
      .map((mail) => /(\d{6})/.exec(mail.text)?.[1])
      .at(-1);
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no confirmation code for ${email} in the outbox`);
}

/**
 * An applicant signed up, confirmed with the code from the outbox and logged in, on a server run as
 * a separate process with `dataDir` (`signUp: false` only logs in).
 */
export async function loggedInOverHttp(
  base: string,
  dataDir: string,
  email: string,
  { signUp = true } = {},
): Promise<Client> {
  const client = new Client(base);
  if (signUp) {
    const signedUp = await client.post('/public/signup', { username: email, password: PASSWORD });
    if (signedUp.status !== 200)
      throw new Error(`signup failed: ${signedUp.status} ${signedUp.text}`);
    const code = await outboxCode(dataDir, email);
    const confirmed = await client.post('/public/confirm', { username: email, code });
    if (confirmed.status !== 200)
      throw new Error(`confirm failed: ${confirmed.status} ${confirmed.text}`);
  }
  const login = await client.post('/public/login', { username: email, password: PASSWORD });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return client;
}

export function codeIn(message: OutboxMessage): string {
  const code = /(\d{6})/.exec(message.text)?.[1];
  if (!code) throw new Error('no code in the message');
  return code;
}

/** A log stream for `startServer({ logStream })` that collects each line it is written. */
export function logCollector(lines: string[]): NodeJS.WritableStream {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) =>
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)),
  );
  return stream;
}
