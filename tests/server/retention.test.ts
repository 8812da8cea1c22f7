/**
 * Retention (D153) with a clock the test sets: an unsubmitted application is reminded once a month
 * before its deletion and deleted with its account after `retention.unsubmitted_months`; a submitted
 * one stays; expired rows go. Two sweeps at once delete each account once and remind it once.
 */
import { and, eq, sql } from 'drizzle-orm';
import { collegeDate } from '../../contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applications,
  sessions,
  staffAudit,
  staffPasswordResets,
  tmpAnswers,
  users,
} from '../../server/db/schema';
import { runInTenant } from '../../server/db/tenantScope';
import { RESET_VALIDITY_MS } from '../../server/account/accounts';
import { RETENTION_WINDOWS, sweepRetention } from '../../server/retention';
import { databaseKinds, PASSWORD, registeredClient, startServer, type TestServer } from './harness';
import { addStaffByCli, invitationToken } from './staffHelpers';

const TENANT = 'northfield';
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(databaseKinds)('retention on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ database });
  });
  afterAll(async () => server?.close());
  const inTenant = <T>(fn: () => Promise<T>) => runInTenant(TENANT, fn);
  const db = () => server.built.database.db;
  const sweep = () => sweepRetention(server.built.documents, [TENANT]);
  const months = (n: number) => {
    const at = new Date(server.clock.now());
    at.setUTCMonth(at.getUTCMonth() - n);
    return at;
  };
  const idOf = async (address: string) => {
    const [row] = await inTenant(() =>
      db().select({ id: users.id }).from(users).where(eq(users.email, address)),
    );
    return row!.id;
  };
  /** The account's last activity moved back to `at`. */
  const lastActive = (userId: string, at: Date) =>
    inTenant(async () => {
      await db().update(users).set({ createdAt: at }).where(eq(users.id, userId));
      await db()
        .update(applications)
        .set({ updatedAt: at })
        .where(and(eq(applications.tenantId, TENANT), eq(applications.userId, userId)));
    });
  const mailsTo = async (address: string, subject: string) =>
    (await server.outbox()).filter((m) => m.to === address && m.subject.includes(subject));

  it('reminds once a month ahead, deletes after 18 months unsubmitted, keeps the submitted and the active', async () => {
    const [idle, active, submitted] = [
      'idle@example.com',
      'active@example.com',
      'kept@example.com',
    ];
    for (const address of [idle, active, submitted]) {
      const client = await registeredClient(server, address);
      expect((await client.put('/api/answer', { first_name: 'Ada' })).status).toBe(200);
    }
    const [idleId, submittedId] = [await idOf(idle), await idOf(submitted)];
    await lastActive(idleId, new Date(months(18).getTime() + 10 * DAY_MS));
    await lastActive(submittedId, months(30));
    await inTenant(() =>
      db()
        .update(applications)
        .set({ submittedAt: months(30) })
        .where(eq(applications.userId, submittedId)),
    );

    const [first, second] = await Promise.all([sweep(), sweep()]);
    expect(first.reminded + second.reminded).toBe(1);
    expect(first.deleted + second.deleted).toBe(0);
    const reminders = await mailsTo(idle, 'will be deleted');
    expect(reminders).toHaveLength(1);
    // The day in words, the college's (D197): "will be deleted on December 7, 2026."
    const deleteOn = collegeDate(
      new Date(server.clock.now().getTime() + RETENTION_WINDOWS.reminderBeforeMs),
      server.built.context.institutionOf(TENANT).time_zone,
    );
    expect(deleteOn).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(reminders[0]?.text).toContain(`will be deleted on ${deleteOn}.`);
    expect((await sweep()).reminded).toBe(0);

    // Its window passes, the notice having been given a month before.
    await lastActive(idleId, months(19));
    await inTenant(() =>
      db()
        .update(users)
        .set({
          retentionRemindedAt: new Date(
            server.clock.now().getTime() - RETENTION_WINDOWS.reminderBeforeMs - DAY_MS,
          ),
        })
        .where(eq(users.id, idleId)),
    );
    const swept = await Promise.all([sweep(), sweep()]);
    expect(swept[0].deleted + swept[1].deleted).toBe(1);
    expect(await inTenant(() => db().select().from(users).where(eq(users.id, idleId)))).toEqual([]);
    expect(await mailsTo(idle, 'your account was deleted')).toHaveLength(1);
    const audits = await inTenant(() =>
      db().select().from(staffAudit).where(eq(staffAudit.actor, 'retention')),
    );
    expect(audits.map((row) => row.action)).toEqual(['account.deleted']);
    for (const address of [active, submitted]) expect(await idOf(address)).toBeTruthy();
  });

  it('does not delete without the month’s notice, even past the window', async () => {
    const address = 'late@example.com';
    await registeredClient(server, address);
    const userId = await idOf(address);
    await lastActive(userId, months(24));
    const outcome = await sweep();
    expect(outcome.deleted).toBe(0);
    expect(outcome.reminded).toBe(1);
    expect(await idOf(address)).toBe(userId);
  });

  it('removes expired sessions and temporary answers', async () => {
    const client = await registeredClient(server, 'expiring@example.com');
    const userId = await idOf('expiring@example.com');
    const past = new Date(server.clock.now().getTime() - 1000);
    await inTenant(async () => {
      await db().update(sessions).set({ expiresAt: past }).where(eq(sessions.userId, userId));
      await db().insert(tmpAnswers).values({
        tokenHash: 'expired-token-hash',
        tenantId: TENANT,
        answers: {},
        expiresAt: past,
        createdAt: past,
      });
    });
    expect((await sweep()).rows).toBeGreaterThanOrEqual(2);
    const left = await inTenant(() =>
      db().execute(
        sql`select (select count(*) from sessions where user_id = ${userId})::int as s, (select count(*) from tmp_answers where token_hash = 'expired-token-hash')::int as t`,
      ),
    );
    expect((left as unknown as { rows: { s: number; t: number }[] }).rows[0]).toEqual({
      s: 0,
      t: 0,
    });
    expect((await client.get('/api/profile')).status).toBe(401);
  });

  it('removes expired staff reset links and keeps the live one (D166)', async () => {
    const staff = 'keeper@northfield.edu';
    await addStaffByCli(server, staff, 'reader');
    const token = await invitationToken(server, staff);
    expect(
      (await server.client().post('/staff/api/join', { token, password: PASSWORD })).status,
    ).toBe(200);
    const links = () =>
      inTenant(() =>
        db().select({ expiresAt: staffPasswordResets.expiresAt }).from(staffPasswordResets),
      );
    await server.client().post('/staff/api/forgot-password', { email: staff });
    expect(await links()).toHaveLength(1);
    server.clock.advance(RESET_VALIDITY_MS + 1000);
    await sweep();
    expect(await links()).toEqual([]);
    await server.client().post('/staff/api/forgot-password', { email: staff });
    await sweep();
    expect(await links()).toHaveLength(1);
  });
});
