/** Helpers of the adversarial suite (SECURITY.md section 7); the server harness is tests/server/harness.ts. */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { runInTenant } from '../../server/db/tenantScope';
import type { Client, Response, TestServer } from '../server/harness';

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Milliseconds one request takes, with its response. */
export async function timed(send: () => Promise<Response>): Promise<[number, Response]> {
  const start = performance.now();
  const response = await send();
  return [performance.now() - start, response];
}

/**
 * Runs `a` and `b` alternately `tries` times after `warmUp` rounds (so drift hits both alike) and
 * returns both medians. `between` runs after each pair (e.g. moving the clock past a limit).
 */
export async function pairedMedians(
  tries: number,
  a: (i: number) => Promise<Response>,
  b: (i: number) => Promise<Response>,
  between: () => void | Promise<void> = () => undefined,
  warmUp = 20,
): Promise<{ a: number; b: number; responses: [Response, Response][] }> {
  const ta: number[] = [];
  const tb: number[] = [];
  const responses: [Response, Response][] = [];
  for (let i = 0; i < warmUp + tries; i++) {
    const first = i % 2 === 0;
    const [t1, r1] = await timed(() => (first ? a(i) : b(i)));
    const [t2, r2] = await timed(() => (first ? b(i) : a(i)));
    await between();
    if (i < warmUp) continue;
    const [timeA, timeB, ra, rb] = first ? [t1, t2, r1, r2] : [t2, t1, r2, r1];
    ta.push(timeA);
    tb.push(timeB);
    responses.push([ra, rb]);
  }
  return { a: median(ta), b: median(tb), responses };
}

/**
 * Every row of every table as JSON text: "grep the dump". Tables under row-level security are read in
 * each tenant's scope in turn (on PostgreSQL a query outside any scope sees none of their rows; D56).
 */
export async function databaseText(server: TestServer): Promise<string> {
  const db = server.built.database.db;
  const tables = (await db.execute(
    sql`select relname as table_name, relrowsecurity as rls from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'`,
  )) as unknown as { rows: { table_name: string; rls: boolean }[] };
  const dump = async (table: string) =>
    (
      (await db.execute(
        sql`select row_to_json(t)::text as j from ${sql.identifier(table)} t`,
      )) as unknown as { rows: { j: string }[] }
    ).rows.map((r) => r.j);
  const parts: string[] = [];
  for (const { table_name, rls } of tables.rows) {
    if (!rls) parts.push(...(await dump(table_name)));
    else
      for (const tenant of server.built.tenants.all())
        parts.push(...(await runInTenant(tenant.id, () => dump(table_name))));
  }
  return parts.join('\n');
}

/** Asks for a reset link and returns it as a URL. */
export async function resetLink(
  server: TestServer,
  address: string,
  client?: Client,
): Promise<URL> {
  const before = (await server.outbox()).length;
  const response = await (client ?? server.client()).post('/public/forgot-password', {
    username: address,
  });
  if (response.status !== 200) throw new Error(`forgot failed: ${response.status}`);
  const mail = await server.mail(address, 'reset your password', { after: before });
  return new URL(/(http\S+\/reset\?\S+)/.exec(mail.text)?.[1] as string);
}

/** The number of outbox messages to an address. */
export async function mailCount(
  server: TestServer,
  address: string,
  subject = '',
): Promise<number> {
  return (await server.outbox()).filter((m) => m.to === address && m.subject.includes(subject))
    .length;
}

/** Lets mails sent after the answer (D20) reach the outbox before counting them. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

/** A marker per hostile value: what the log is searched for. */
export const mark = () => `MARK${randomBytes(6).toString('hex')}`;
/** What a route walk sends: NUL, a lone surrogate, over-long, markup and SQL, an address. */
export function hostileValues(): string[] {
  return [
    `nul\u0000${mark()}`,
    `lone\ud800${mark()}surrogate`,
    `${mark()}${'x'.repeat(5000)}`,
    `<script>${mark()}</script>' OR 1=1 --`,
    `${mark()}@victim.example.com`,
  ];
}

/** What `mark` makes: MARK and six bytes in hex. */
const MARKER = /MARK[0-9a-f]{12}/;

/**
 * Once the last lines are in, the log (more than `atLeast` lines, so it was collected) holds no value
 * of `sent`: a value's marker where it has one, else the value itself.
 */
export async function expectNotLogged(
  sent: readonly string[],
  lines: readonly string[],
  atLeast: number,
): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(lines.length).toBeGreaterThan(atLeast);
  const log = lines.join('\n');
  for (const value of sent) {
    const marker = MARKER.exec(value)?.[0] ?? value;
    expect(log.includes(marker), `the log holds ${marker}`).toBe(false);
  }
}

/** Percent-encoding that keeps a lone surrogate (as its three WTF-8 bytes), as an attacker would. */
export function encodeKeepingSurrogates(value: string): string {
  return value
    .split(/(\p{Cs})/u)
    .map((part) => {
      if (!/^\p{Cs}$/u.test(part)) return encodeURIComponent(part);
      const unit = part.charCodeAt(0);
      return [0xed, 0xa0 | ((unit >> 6) & 0x0f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');
}
