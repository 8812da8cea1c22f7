/**
 * Durable mail (D138), with real processes and a real SMTP server: while the mail server is down,
 * an applicant signs up, another asks for a reset link and submits; the web process and its job
 * worker are restarted (SIGTERM, then started again on the same data); when the mail server is back,
 * every code, link and receipt arrives, each exactly once, and they work.
 *
 * The outage lasts seconds, not a minute: the tries are shortened in proportion (MAIL_RETRY_SECONDS
 * 0.5, at most 1 s apart, where production waits 30 s doubling to 15 min), so it still spans many
 * failed tries and both restarts. On PGlite the web process forks its worker (JOB_WORKER=process);
 * on PostgreSQL both run apart (JOB_WORKER=none and `npm run worker`) and are restarted one by one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { validApplication } from '../definitions/fixtures';
import { freePort } from '../fixtures/freePort';
import { dropDatabase } from '../server/dropDatabase';
import { Client, PASSWORD } from '../server/harness';
import {
  firstStartedDataDir,
  startServerProcess,
  type ServerProcess,
} from '../server/serverProcess';
import { TestSmtpServer, type ReceivedMail } from './smtpServer';
import { entryArgs } from '../server/entryArgs';

const TIMEOUT_MS = 600_000;
/** Long enough for several failed tries at the shortened waits, with both restarts inside. */
const OUTAGE_MS = 6_000;

interface Deployment {
  /** The web and worker processes, started on the deployment's data. */
  start(): Promise<void>;
  /** SIGTERM to every process, waiting for each to exit (0). */
  stop(): Promise<void>;
  readonly url: () => string;
}

const backends = inject('postgresTemplate')
  ? (['pglite', 'postgres'] as const)
  : (['pglite'] as const);

async function stopped(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

async function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, entryArgs('server/worker.ts'), {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await expect.poll(() => out, { timeout: 180_000, interval: 100 }).toContain('job worker running');
  return child;
}

function deployment(env: NodeJS.ProcessEnv, dataDir: string, separateWorker: boolean): Deployment {
  let web: ServerProcess | undefined;
  let worker: ChildProcess | undefined;
  return {
    async start() {
      web = await startServerProcess(
        dataDir,
        { ...env, ...(separateWorker ? { JOB_WORKER: 'none' } : {}) },
        { script: entryArgs('server/main.ts') },
      );
      expect((await web.healthy(180))?.status, web.log()).toBe(200);
      if (separateWorker) worker = await startWorker({ ...env, DATA_DIR: dataDir });
    },
    async stop() {
      // The worker first where it runs apart: a web process alone keeps queuing.
      if (worker) expect(await stopped(worker)).toBe(0);
      if (web) expect(await stopped(web.child), web.log()).toBe(0);
    },
    url: () => web?.url as string,
  };
}

/** A worker process may take minutes to start on a loaded machine. */
async function waitFor(what: () => ReceivedMail[], timeout = 240_000): Promise<ReceivedMail> {
  await expect.poll(() => what().length, { timeout, interval: 100 }).toBeGreaterThan(0);
  return what()[0] as ReceivedMail;
}

describe.each(backends)('mail while the SMTP server is down, on %s', (backend) => {
  let dataDir: string | undefined;
  let dbName: string | undefined;
  let smtp: TestSmtpServer | undefined;
  let app: Deployment | undefined;

  afterAll(async () => {
    await app?.stop().catch(() => undefined);
    await smtp?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (dbName) {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL as string });
      await admin.connect();
      await dropDatabase((statement) => admin.query(statement), dbName);
      await admin.end();
    }
  });

  it(
    'delivers every code, reset link and receipt once it is back, through restarts, none twice',
    async () => {
      // On PGlite, as a first start left it (its migrations are not what is under test here).
      dataDir =
        backend === 'pglite'
          ? await firstStartedDataDir('admission-mail-')
          : await mkdtemp(path.join(os.tmpdir(), 'admission-mail-'));
      smtp = new TestSmtpServer(await freePort());
      await smtp.start();
      const env: NodeJS.ProcessEnv = {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_RETRY_SECONDS: '0.5',
        MAIL_RETRY_MAX_SECONDS: '1',
      };
      if (backend === 'postgres') {
        dbName = `admission_mail_${process.pid}_${randomBytes(4).toString('hex')}`;
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL as string });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${dbName} TEMPLATE ${inject('postgresTemplate')}`);
        await admin.end();
        const url = new URL(process.env.TEST_DATABASE_URL as string);
        url.pathname = `/${dbName}`;
        env.DATABASE_URL = url.toString();
      }
      app = deployment(env, dataDir, backend === 'postgres');
      await app.start();

      // Before the outage: an applicant with an account and a complete application.
      const first = 'first@example.com';
      const firstClient = new Client(app.url());
      await firstClient.post('/public/signup', { username: first, password: PASSWORD });
      const firstCode = /Your confirmation code is (\d{6})/.exec(
        (await waitFor(() => smtp!.to(first, 'code'))).text,
      )?.[1];
      expect(
        (await firstClient.post('/public/confirm', { username: first, code: firstCode })).status,
      ).toBe(200);
      expect(
        (await firstClient.post('/public/login', { username: first, password: PASSWORD })).status,
      ).toBe(200);
      expect((await firstClient.put('/api/answer', validApplication)).status).toBe(200);

      await smtp.stop();
      const second = 'second@example.com';
      const third = 'third@example.com';
      expect(
        (
          await new Client(app.url()).post('/public/signup', {
            username: second,
            password: PASSWORD,
          })
        ).status,
      ).toBe(200);
      // A code asked again: two events, two mails; the newer code is the one that works.
      await new Client(app.url()).post('/public/signup', { username: third, password: PASSWORD });
      await new Client(app.url()).post('/public/resend-confirm', { username: third });
      expect(
        (await new Client(app.url()).post('/public/forgot-password', { username: first })).status,
      ).toBe(200);
      expect((await firstClient.post('/api/submit')).status).toBe(200);

      const outageStarted = Date.now();
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS / 2));
      await app.stop();
      await app.start();
      const left = OUTAGE_MS - (Date.now() - outageStarted);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      expect(smtp.received).toHaveLength(1);
      await smtp.start();

      const secondCode = await waitFor(() => smtp!.to(second, 'confirmation code'));
      const reset = await waitFor(() => smtp!.to(first, 'reset your password'));
      await waitFor(() => smtp!.to(first, 'we received your application'));
      await expect
        .poll(() => smtp!.to(third, 'confirmation code').length, { timeout: 240_000 })
        .toBe(2);
      // Several tries' worth of waiting more: nothing comes twice.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const ids = smtp.received.map((mail) => mail.messageId);
      expect(
        ids.every((id) => /^<[0-9a-f]{32}@northfield\.example\.edu>$/.test(id)),
        ids.join(),
      ).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      expect(smtp.received.map((mail) => `${mail.to} ${mail.subject}`).sort()).toEqual(
        [
          `${first} Northfield College: your confirmation code`,
          `${first} Northfield College: reset your password`,
          `${first} Northfield College: we received your application`,
          `${second} Northfield College: your confirmation code`,
          `${third} Northfield College: your confirmation code`,
          `${third} Northfield College: your confirmation code`,
        ].sort(),
      );

      // What arrived works: the code confirms, the newest of two codes too, and the link resets.
      const code = /Your confirmation code is (\d{6})/.exec(secondCode.text)?.[1];
      expect(
        (await new Client(app.url()).post('/public/confirm', { username: second, code })).status,
      ).toBe(200);
      const thirdConfirm = new Client(app.url());
      const confirmed: number[] = [];
      for (const mail of smtp.to(third, 'confirmation code')) {
        const candidate = /Your confirmation code is (\d{6})/.exec(mail.text)?.[1];
        const answer = await thirdConfirm.post('/public/confirm', {
          username: third,
          code: candidate,
        });
        confirmed.push(answer.status);
      }
      expect(confirmed.filter((status) => status === 200)).toHaveLength(1);
      const link = new URL(/(http\S+\/reset\?\S+)/.exec(reset.text)?.[1] as string);
      const resetDone = await new Client(app.url()).post('/public/reset-password', {
        username: link.searchParams.get('username'),
        id: link.searchParams.get('id'),
        password: 'Another-Horse-43',
        confirm_password: 'Another-Horse-43',
      });
      expect(resetDone.status, resetDone.text).toBe(200);
      await waitFor(() => smtp!.to(first, 'your password was changed'));
    },
    TIMEOUT_MS,
  );
});
