/** Helpers of the adversarial suite (SECURITY.md section 7); the server harness is tests/server/harness.ts. */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { runInTenant } from '../../server/db/tenantScope';
import type { Client, TestServer } from '../server/harness';

/** One request as the timing client saw it: how long it took, and its answer. */
export interface TimedReply {
  readonly ms: number;
  readonly status: number;
  readonly text: string;
}

/**
 * Times POSTs from a process of its own (tests/fixtures/timingClient.ts), as a script outside the
 * server would: what the server's process does once an answer has gone out (its job worker) does not
 * hold up the reading of the answer, as it would in the test's own process (D193).
 */
export class TimingClient {
  private next = 0;
  private readonly waiting = new Map<number, (reply: TimedReply) => void>();

  private constructor(
    private readonly child: ChildProcess,
    private readonly base: string,
  ) {
    child.on('message', (message: TimedReply & { id: number }) => {
      this.waiting.get(message.id)?.(message);
      this.waiting.delete(message.id);
    });
  }

  static async start(base: string): Promise<TimingClient> {
    const child = fork('tests/fixtures/timingClient.ts', [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the timing client exited (${code})`)));
    });
    return new TimingClient(child, base);
  }

  post(path: string, body: unknown): Promise<TimedReply> {
    const id = ++this.next;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.send({ id, url: new URL(path, this.base).toString(), body });
    });
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill();
    await exited;
  }
}

/** Two requests' times over interleaved pairs, and their answers side by side. */
export interface PairedTimings {
  readonly a: number[];
  readonly b: number[];
  readonly replies: [TimedReply, TimedReply][];
}

/** What runs around the timed requests of `pairedTimings`. */
export interface PairOptions {
  /** After each pair, untimed: e.g. moving the clock past a limit. */
  readonly between?: () => void | Promise<void>;
  /** Pairs run first and not kept (20). */
  readonly warmUp?: number;
}

/**
 * Runs `a` and `b` alternately `tries` times after the warm-up, the first of each pair by turns (so
 * drift hits both alike), and returns every time.
 */
export async function pairedTimings(
  tries: number,
  a: (i: number) => Promise<TimedReply>,
  b: (i: number) => Promise<TimedReply>,
  { between = () => undefined, warmUp = 20 }: PairOptions = {},
): Promise<PairedTimings> {
  const ta: number[] = [];
  const tb: number[] = [];
  const replies: [TimedReply, TimedReply][] = [];
  for (let i = 0; i < warmUp + tries; i++) {
    const first = i % 2 === 0;
    const r1 = await (first ? a(i) : b(i));
    const r2 = await (first ? b(i) : a(i));
    await between();
    if (i < warmUp) continue;
    const [ra, rb] = first ? [r1, r2] : [r2, r1];
    ta.push(ra.ms);
    tb.push(rb.ms);
    replies.push([ra, rb]);
  }
  return { a: ta, b: tb, replies };
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
