/**
 * Server configuration, parsed with zod at start: a bad or missing value stops the start with a
 * message naming it (ARCHITECTURE.md).
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** The interface to listen on; default: see listenHostOf (D132). */
  HOST: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Where the embedded database, the outbox and uploads live. */
  DATA_DIR: z.string().default('./data'),
  /** PostgreSQL; when unset, the embedded PGlite in DATA_DIR is used. */
  DATABASE_URL: z.string().url().optional(),
  /** PostgreSQL: the schema owner that runs migrations at start, when DATABASE_URL's role may not. */
  DATABASE_MIGRATION_URL: z.string().url().optional(),
  /** SMTP; when unset, mail goes to DATA_DIR/outbox.jsonl. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Northfield College Admission <admission@northfield.example.edu>'),
  /** A mail that could not be sent is tried again after this, doubled each time (D138). */
  MAIL_RETRY_SECONDS: z.coerce.number().positive().max(3600).default(30),
  /** The longest wait between two tries of a mail. */
  MAIL_RETRY_MAX_SECONDS: z.coerce
    .number()
    .positive()
    .max(24 * 3600)
    .default(900),
  /** A mail not sent within this is given up (sooner when its code or link expires first). */
  MAIL_GIVE_UP_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 7)
    .default(24),
  /** The public origin links in e-mails are built from (never the Host header). */
  // Unset: http://localhost:<the port the server listens on> (see publicOriginOf).
  PUBLIC_ORIGIN: z.string().url().optional(),
  /** The tenant served for hosts no tenant claims (the embedded default has one tenant). */
  DEFAULT_TENANT: z.string().default('northfield'),
  /** The proxies in front whose X-Forwarded-* are believed: a hop count or their addresses. */
  TRUST_PROXY: z.string().default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where the built applicant app is served from, if built. */
  CLIENT_DIR: z.string().default('./dist/client'),
  /** Documents (SPEC 4.4): where uploads and converted PDFs are kept. */
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** The Chromium that prints docx conversions (and the application PDF). */
  CHROMIUM_PATH: z.string().optional(),
  /**
   * Where jobs (printing, conversion) run (D98): `process`, a worker process this server starts;
   * `none`, workers started apart with `npm run worker` (PostgreSQL only); `inline`, this process.
   */
  JOB_WORKER: z.enum(['process', 'none', 'inline']).default('process'),
  /** How long a claimed job is held before another worker may take it (a worker that died). */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  TENANT_REFRESH_SECONDS: z.coerce.number().positive().max(3600).default(5),
  /** How long a done job is kept, in days, before the worker deletes it (D136). */
  JOB_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  /** How long a failed job (and its last error) is kept, in days, for an operator to see. */
  JOB_FAILED_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Staff keys per tenant, `tenant=key` pairs separated by commas (keys of 32+ characters). */
  STAFF_API_KEYS: z.string().optional(),
  /** The HMAC key of service tokens (32+ characters); default: a random key kept in DATA_DIR. */
  SERVICE_TOKEN_SECRET: z.string().min(32).optional(),
  /** The HMAC key of local presigned uploads (32+ characters); default: a random key in DATA_DIR. */
  UPLOAD_SECRET: z.string().min(32).optional(),
  /** The master key wrapping the tenants' data keys (32+ characters, D150); default: a random key in DATA_DIR. */
  MASTER_KEY: z.string().min(32).optional(),
  /** The master key a rotation retires, readable until every data key is re-wrapped (D155). */
  MASTER_KEY_PREVIOUS: z.string().min(32).optional(),
  /** The HMAC key of the addresses' log pseudonyms (32+ characters, D151); default: a random key in DATA_DIR. */
  LOG_PSEUDONYM_SECRET: z.string().min(32).optional(),
  /** How long a service link lasts, in minutes (SECURITY.md: 1 hour). */
  SERVICE_TOKEN_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  /** The bearer token a Prometheus scraper presents at /metrics (32+ characters); unset: no /metrics. */
  METRICS_TOKEN: z.string().min(32).optional(),
  /** HSTS max-age in seconds, sent on https requests only (0 turns it off). */
  HSTS_MAX_AGE: z.coerce.number().int().min(0).default(31536000),
});

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY's list as Fastify does. */
const DAY_MS = 24 * 60 * 60_000;

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IPv4 or IPv6 address, with an optional /prefix of its family's length. */
function isAddressOrCidr(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY (D76): `false` (default, nobody), a hop count (`1`: the one proxy in front),
 * or a comma-separated list of proxy addresses, CIDR ranges or proxy-addr's range names. `true`
 * (believe any X-Forwarded-For) is refused: a client could then choose its own address.
 */
const trustProxySchema = z.string().transform((text, ctx): false | number | string[] => {
  const value = text.trim();
  if (value === 'false' || value === '0') return false;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isAddressOrCidr(entry));
  if (entries.length === 0 || bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `expected false, a number of proxy hops, or proxy addresses/CIDR ranges separated by commas${value === 'true' ? ' (true would trust any X-Forwarded-For)' : ''}; got ${JSON.stringify(value)}`,
    });
    return z.NEVER;
  }
  return entries;
});

/** `tenant=key,tenant2=key2` → key per tenant; a malformed pair or a short key is an error. */
const staffKeysSchema = z.string().transform((text, ctx) => {
  const keys: Record<string, string> = {};
  for (const pair of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const index = pair.indexOf('=');
    const tenant = pair.slice(0, index).trim();
    const key = pair.slice(index + 1).trim();
    if (index <= 0 || key.length < 32) {
      ctx.addIssue({
        code: 'custom',
        message: 'expected tenant=key pairs with keys of 32+ characters',
      });
      return z.NEVER;
    }
    keys[tenant] = key;
  }
  return keys;
});

/** How long finished jobs are kept (D136); here, with the settings, so config imports no job. */
export interface JobRetention {
  /** How long a done job is kept. */
  readonly doneMs: number;
  /** How long a failed job is kept (its `last_error` for an operator). */
  readonly failedMs: number;
}

export interface ServerConfig {
  readonly env: 'development' | 'production' | 'test';
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  /** The role that runs migrations (PostgreSQL); undefined: DATABASE_URL's. */
  readonly databaseMigrationUrl: string | undefined;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /** Mail tries (D138): the first wait, the longest wait, and when a mail is given up. */
  readonly mail: {
    readonly retryMs: number;
    readonly retryMaxMs: number;
    readonly giveUpMs: number;
  };
  readonly publicOrigin: string;
  readonly defaultTenant: string;
  /** Fastify's trustProxy: nobody, a hop count, or the proxies' addresses and ranges. */
  readonly trustProxy: false | number | readonly string[];
  readonly logLevel: string;
  readonly clientDir: string;
  /** Staff bearer keys per tenant id (D41). */
  readonly staffApiKeys: Readonly<Record<string, string>>;
  /** The service-token HMAC key from the environment; undefined: generated in DATA_DIR. */
  readonly serviceTokenSecret: string | undefined;
  /** Service link lifetime in milliseconds. */
  readonly serviceTokenTtlMs: number;
  /** The upload-policy HMAC key from the environment; undefined: generated in DATA_DIR. */
  readonly uploadSecret: string | undefined;
  /** The master key from the environment; undefined: generated in DATA_DIR (D150). */
  readonly masterKey: string | undefined;
  readonly masterKeyPrevious: string | undefined;
  /** The log pseudonyms' HMAC key from the environment; undefined: generated in DATA_DIR (D151). */
  readonly logPseudonymSecret: string | undefined;
  /** Strict-Transport-Security max-age for requests that arrived over https; 0: no header. */
  readonly hstsMaxAge: number;
  /** The bearer token of /metrics (D139); undefined: /metrics is off. */
  readonly metricsToken: string | undefined;
  /** Documents: local disk under DATA_DIR, or S3 / a compatible store. */
  readonly storage:
    | { readonly kind: 'local' }
    | {
        readonly kind: 's3';
        readonly bucket: string;
        readonly region: string;
        readonly endpoint: string | undefined;
        readonly accessKeyId: string | undefined;
        readonly secretAccessKey: string | undefined;
      };
  readonly chromiumPath: string | undefined;
  /** Where the job worker runs: a child process, elsewhere, or in this process (D98). */
  readonly jobWorker: 'process' | 'none' | 'inline';
  /** The job worker: poll interval and claim lease. */
  readonly jobs: { readonly pollMs: number; readonly leaseMs: number };
  /** How long finished jobs are kept before the worker prunes them (D136). */
  readonly jobRetention: JobRetention;
  /** How often each process looks for tenants added or changed by another (D145). */
  readonly tenantRefreshMs: number;
  /** Cookies get Secure (and the __Host- prefix) when the public origin is https. */
  readonly secureCookies: boolean;
  /** The clock: injected so tests can move time. */
  readonly now: () => Date;
  /** Per-IP request limits on the account calls (per minute). */
  readonly publicRateLimit: number;
  /** Per-IP requests a minute on GET /lookup/find (typing sends about two a second). */
  readonly lookupRateLimit: number;
  /** Argon2id cost; tests may lower it, production keeps SECURITY.md's m=19 MiB, t=2, p=1. */
  readonly argon2: {
    readonly memoryCost: number;
    readonly timeCost: number;
    readonly parallelism: number;
  };
}

export const ARGON2_PRODUCTION = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Reads the environment; throws an Error naming every bad or missing value. */
export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  // An empty variable (DATABASE_URL= in a deployment template) means unset.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = result.data;
  const staffKeys = staffKeysSchema.safeParse(e.STAFF_API_KEYS ?? '');
  if (!staffKeys.success)
    throw new Error(
      `Invalid configuration:\n  STAFF_API_KEYS: ${staffKeys.error.issues[0]?.message}`,
    );
  const trustProxy = trustProxySchema.safeParse(e.TRUST_PROXY);
  if (!trustProxy.success)
    throw new Error(
      `Invalid configuration:\n  TRUST_PROXY: ${trustProxy.error.issues[0]?.message}`,
    );
  if (e.DATABASE_MIGRATION_URL && !e.DATABASE_URL)
    throw new Error(
      'Invalid configuration:\n  DATABASE_MIGRATION_URL: set only together with DATABASE_URL',
    );
  if (e.JOB_WORKER === 'none' && !e.DATABASE_URL)
    throw new Error(
      'Invalid configuration:\n  JOB_WORKER: `none` needs DATABASE_URL (on PGlite only this process reaches the database)',
    );
  if (e.STORAGE === 's3' && !e.S3_BUCKET)
    throw new Error('Invalid configuration:\n  S3_BUCKET: required when STORAGE=s3');
  const publicOrigin = publicOriginOf(e.PUBLIC_ORIGIN, e.PORT);
  if (
    e.NODE_ENV === 'production' &&
    !isSecureOrigin(publicOrigin) &&
    !isLoopbackOrigin(publicOrigin)
  )
    throw new Error(
      `Invalid configuration:\n  PUBLIC_ORIGIN: production serves applicants over https (behind a TLS proxy, its https: origin); http: only on this machine (http://localhost:${e.PORT}); got ${publicOrigin}`,
    );
  return {
    env: e.NODE_ENV,
    host: e.HOST ?? listenHostOf(e.NODE_ENV, publicOrigin),
    port: e.PORT,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseMigrationUrl: e.DATABASE_MIGRATION_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mail: {
      retryMs: e.MAIL_RETRY_SECONDS * 1000,
      retryMaxMs: Math.max(e.MAIL_RETRY_SECONDS, e.MAIL_RETRY_MAX_SECONDS) * 1000,
      giveUpMs: e.MAIL_GIVE_UP_HOURS * 3600 * 1000,
    },
    publicOrigin,
    defaultTenant: e.DEFAULT_TENANT,
    trustProxy: trustProxy.data,
    logLevel: e.LOG_LEVEL,
    clientDir: path.resolve(e.CLIENT_DIR),
    staffApiKeys: staffKeys.data,
    serviceTokenSecret: e.SERVICE_TOKEN_SECRET,
    serviceTokenTtlMs: e.SERVICE_TOKEN_TTL_MINUTES * 60 * 1000,
    uploadSecret: e.UPLOAD_SECRET,
    masterKey: e.MASTER_KEY,
    masterKeyPrevious: e.MASTER_KEY_PREVIOUS,
    logPseudonymSecret: e.LOG_PSEUDONYM_SECRET,
    hstsMaxAge: e.HSTS_MAX_AGE,
    metricsToken: e.METRICS_TOKEN,
    storage:
      e.STORAGE === 's3'
        ? {
            kind: 's3',
            bucket: e.S3_BUCKET as string,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          }
        : { kind: 'local' },
    chromiumPath: e.CHROMIUM_PATH,
    jobWorker: e.JOB_WORKER,
    jobs: { pollMs: 1000, leaseMs: e.JOB_LEASE_SECONDS * 1000 },
    tenantRefreshMs: e.TENANT_REFRESH_SECONDS * 1000,
    jobRetention: {
      doneMs: e.JOB_RETENTION_DAYS * DAY_MS,
      failedMs: e.JOB_FAILED_RETENTION_DAYS * DAY_MS,
    },
    secureCookies: isSecureOrigin(publicOrigin),
    now: () => new Date(),
    publicRateLimit: 60,
    lookupRateLimit: 300,
    argon2: ARGON2_PRODUCTION,
    ...overrides,
  };
}

/** The origin links are built from: PUBLIC_ORIGIN, else this machine on the port the server uses. */
export function publicOriginOf(publicOrigin: string | undefined, port: number): string {
  return publicOrigin ? publicOrigin.replace(/\/$/, '') : `http://localhost:${port}`;
}

const isSecureOrigin = (origin: string): boolean => origin.startsWith('https:');

/** An origin on this machine: localhost (and its subdomains), 127.0.0.0/8 or ::1. */
function isLoopbackOrigin(origin: string): boolean {
  const host = new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/**
 * The interface listened on when HOST is unset (D132): every one only for production behind its
 * https: origin (the TLS proxy reaches it over the network); anything else, this machine alone.
 */
function listenHostOf(env: ServerConfig['env'], publicOrigin: string): string {
  return env === 'production' && isSecureOrigin(publicOrigin) ? '0.0.0.0' : 'localhost';
}
