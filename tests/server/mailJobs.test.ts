/**
 * Mail as jobs (D138): what the queue keeps of a mail, the tries while the mail server refuses, the
 * give-up with its logged event and count, and bursts of sign-ups and code requests that mail each
 * code exactly once. The end-to-end outage with restarts is tests/reliability/mailDurability.test.ts.
 */
import { PassThrough } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT_REQUEST_JOB } from '../../server/account';
import { jobs } from '../../server/db/schema';
import { MAIL_JOB } from '../../server/mail/mailJobs';
import { mailCounts } from '../../server/mail/mailStats';
import { freePort } from '../fixtures/freePort';
import {
  codeIn,
  databaseKinds,
  PASSWORD,
  registeredClient,
  startServer,
  type StartOptions,
  type TestServer,
} from './harness';

const HOUR = 60 * 60 * 1000;

describe.each(databaseKinds)('mail as jobs on %s', (database) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async (options: StartOptions = {}) => {
    server = await startServer({ database, ...options });
    return server;
  };
  const jobsOf = (s: TestServer, kind: string) =>
    s.built.database.db.select().from(jobs).where(eq(jobs.kind, kind)).orderBy(jobs.id);
  const mailJobs = (s: TestServer) => jobsOf(s, MAIL_JOB);

  it('keeps the address and code sealed until sent, and nothing of them after', async () => {
    const s = await start();
    const queue = s.built.documents.queue;
    await queue.stop();
    const address = 'sealed@example.com';
    await s.client().post('/public/signup', { username: address, password: PASSWORD });
    // The sign-up's account request holds the address sealed as well, and nothing of it once run
    // (D193); run by hand, one job at a time, until it has queued the mail.
    const [request] = await jobsOf(s, ACCOUNT_REQUEST_JOB);
    expect(request).toMatchObject({ status: 'queued', payload: { request: 'signup' } });
    expect(JSON.stringify(request)).not.toContain(address);
    expect(request?.payload.sealed).toMatch(/^v1\./);
    while ((await jobsOf(s, ACCOUNT_REQUEST_JOB))[0]?.status !== 'done')
      expect(await queue.runOnce()).toBe(true);
    const [ran] = await jobsOf(s, ACCOUNT_REQUEST_JOB);
    expect(ran?.payload.sealed).toBeUndefined();
    expect(ran?.payload.doneAt).toBeTruthy();
    const [queued] = await mailJobs(s);
    expect(queued).toMatchObject({ status: 'queued', payload: { template: 'confirmationCode' } });
    expect(JSON.stringify(queued)).not.toContain(address);
    expect(queued?.payload.sealed).toMatch(/^v1\./);

    queue.start();
    const code = codeIn(await s.mail(address, 'confirmation code'));
    const [sent] = await mailJobs(s);
    expect(sent?.status).toBe('done');
    expect(sent?.payload.sentAt).toBeTruthy();
    expect(sent?.payload.sealed).toBeUndefined();
    expect(JSON.stringify(sent)).not.toContain(address);
    expect(JSON.stringify(sent)).not.toContain(code);
    // The outbox keeps the Message-ID every try of this mail carries.
    expect((await s.outbox()).at(-1)).toMatchObject({ messageId: sent?.payload.messageId });
  });

  it('tries again with a doubling wait while the mail server refuses, then gives up with one logged event', async () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
    // A port nothing listens on: every try is refused.
    const s = await start({
      env: { SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, LOG_LEVEL: 'info' },
      logStream: stream,
    });
    const givenUp = mailCounts().given_up;
    const address = 'refused@example.com';
    await s.client().post('/public/signup', { username: address, password: PASSWORD });
    const waits: number[] = [];
    for (const attempts of [1, 2, 3]) {
      // Each try is counted when claimed; the failed one is queued again with its wait.
      await expect
        .poll(
          async () => {
            const [job] = await mailJobs(s);
            return `${job?.attempts} ${job?.status}`;
          },
          { timeout: 15_000 },
        )
        .toBe(`${attempts} queued`);
      const [job] = await mailJobs(s);
      waits.push((job?.runAfter.getTime() ?? 0) - s.clock.now().getTime());
      s.clock.advance(waits.at(-1) ?? 0);
    }
    expect(waits).toEqual([30_000, 60_000, 120_000]);

    // The code lives 24 hours, and so do the tries.
    s.clock.advance(24 * HOUR);
    // Marked failed, then its give-up is recorded (the sealed part dropped).
    await expect
      .poll(async () => (await mailJobs(s))[0]?.payload.givenUpAt, { timeout: 15_000 })
      .toBeTruthy();
    expect((await mailJobs(s))[0]?.status).toBe('failed');
    const [job] = await mailJobs(s);
    expect(job?.payload.sealed).toBeUndefined();
    expect(job?.payload.givenUpAt).toBeTruthy();
    const events = lines.filter((line) => line.includes('"event":"mail.given_up"'));
    expect(events).toHaveLength(1);
    expect(events[0]).not.toContain(address);
    expect(mailCounts().given_up).toBe(givenUp + 1);
    expect(lines.join('\n')).not.toContain(address);
  });

  it('gives up a reset link when it expires, not a day later', async () => {
    const s = await start();
    const queue = s.built.documents.queue;
    const address = 'late@example.com';
    const client = s.client();
    await client.post('/public/signup', { username: address, password: PASSWORD });
    const code = codeIn(await s.mail(address, 'confirmation code'));
    await client.post('/public/confirm', { username: address, code });
    const before = (await s.outbox()).length;
    // The worker is down while the link lives.
    await queue.stop();
    await client.post('/public/forgot-password', { username: address });
    s.clock.advance(HOUR + 1000);
    queue.start();
    await expect
      .poll(
        async () =>
          (
            await s.built.database.db
              .select({ status: jobs.status })
              .from(jobs)
              .where(and(eq(jobs.kind, MAIL_JOB), eq(jobs.status, 'failed')))
          ).length,
        { timeout: 15_000 },
      )
      .toBe(1);
    expect((await s.outbox()).slice(before)).toEqual([]);
  });

  it('mails each of dozens of parallel sign-ups its code exactly once', async () => {
    const s = await start();
    const addresses = Array.from({ length: 40 }, (_, i) => `burst.${i}@example.com`);
    const answers = await Promise.all(
      addresses.map((username) =>
        s.client().post('/public/signup', { username, password: PASSWORD }),
      ),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const mails = (await s.outbox()).filter((mail) => mail.subject.includes('confirmation code'));
    expect(mails.map((mail) => mail.to).sort()).toEqual([...addresses].sort());
    expect(new Set(mails.map((mail) => mail.messageId)).size).toBe(addresses.length);
    const confirmed = await Promise.all(
      mails.map((mail) =>
        s.client().post('/public/confirm', { username: mail.to, code: codeIn(mail) }),
      ),
    );
    expect(confirmed.every((answer) => answer.status === 200)).toBe(true);
  });

  it('mails one code per code issued when dozens ask again at once', async () => {
    const s = await start();
    const address = 'again@example.com';
    await s.client().post('/public/signup', { username: address, password: PASSWORD });
    await s.mail(address, 'confirmation code');
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        s.client().post('/public/resend-confirm', { username: address }),
      ),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const codes = (await s.outbox()).filter((mail) => mail.to === address);
    // Five codes an hour (REQ-ID-1): the sign-up's and four more, each mailed once.
    expect(codes).toHaveLength(5);
    expect(new Set(codes.map((mail) => mail.messageId)).size).toBe(5);
    expect((await mailJobs(s)).map((job) => job.status)).toEqual(Array(5).fill('done'));
    // The code stored last works; the mails may have gone out in another order.
    const client = s.client();
    const statuses: number[] = [];
    for (const mail of codes)
      statuses.push(
        (await client.post('/public/confirm', { username: address, code: codeIn(mail) })).status,
      );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
  });

  it('acts on an account request once, though its job runs again after a stop between its commit and its end (D193)', async () => {
    const s = await start();
    const queue = s.built.documents.queue;
    const db = s.built.database.db;
    const owner = 'twice@example.com';
    const pending = 'twice-pending@example.com';
    await registeredClient(s, owner);
    await s.client().post('/public/signup', { username: pending, password: PASSWORD });
    await s.outbox();
    await queue.stop();
    const drain = async () => {
      while (await queue.runOnce());
    };
    const requests: [string, Record<string, string>, string][] = [
      ['/public/forgot-password', { username: owner }, owner],
      ['/public/signup', { username: owner, password: 'Other-Pass-99!' }, owner],
      ['/public/resend-confirm', { username: pending }, pending],
    ];
    for (const [path, body, address] of requests) {
      await s.client().post(path, body);
      const [queued] = (await jobsOf(s, ACCOUNT_REQUEST_JOB)).slice(-1);
      await drain();
      const mails = (await s.outbox()).filter((mail) => mail.to === address);
      // The run committed but the worker stopped before its end: the job runs again, as queued.
      await db
        .update(jobs)
        .set({ status: 'queued', payload: queued?.payload, runAfter: s.clock.now() })
        .where(eq(jobs.id, queued?.id as number));
      await drain();
      const [again] = await db
        .select()
        .from(jobs)
        .where(eq(jobs.id, queued?.id as number));
      expect(again?.status, path).toBe('done');
      expect(
        (await s.outbox()).filter((mail) => mail.to === address),
        path,
      ).toEqual(mails);
    }
    queue.start();
    // The link of the request run twice still works: the second run replaced nothing.
    const [link] = (await s.outbox())
      .filter((mail) => mail.to === owner && mail.subject.includes('reset your password'))
      .map((mail) => new URL(/(http\S+\/reset\?\S+)/.exec(mail.text)?.[1] as string));
    const reset = await s.client().post('/public/reset-password', {
      username: owner,
      id: link?.searchParams.get('id'),
      password: 'Brand-New-Pass-1!',
      confirm_password: 'Brand-New-Pass-1!',
    });
    expect(reset.status).toBe(200);
  });
});
