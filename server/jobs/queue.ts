/**
 * The durable job queue (docs/decisions/ D30): a `jobs` table claimed with
 * `SELECT ... FOR UPDATE SKIP LOCKED`, so any number of server processes on one PostgreSQL (or the one
 * process on PGlite) take each job exactly once. A claim holds a lease (`locked_until`); a worker that
 * dies holding a job leaves it to be claimed again once the lease has run out, so a restart resumes it.
 *
 * Claims are fair between owners (issue 15.8, D71): the next job is the oldest ready one of the owner
 * (the payload's tenant and applicant) with the fewest jobs running or finished in the last minute,
 * so one applicant's heavy files cannot hold back another's small one for more than the job running.
 *
 * Adding a kind is one call: `queue.register('application-pdf', handler)`. Every payload carries the
 * `tenantId` it belongs to: `run` and `onGiveUp` run in that tenant's scope (docs/decisions/ D56), so
 * their queries see that tenant's rows only; a payload without one runs outside any tenant and sees
 * nothing. The queue's own statements on `jobs` (a table outside row-level security) need no tenant.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, lte, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobs } from '../db/schema';
import { currentTenant, runInTenant, runWithoutTenant } from '../db/tenantScope';
import { WorkerHeartbeat } from './heartbeat';

export interface Job<P = Record<string, unknown>> {
  readonly id: number;
  readonly kind: string;
  readonly payload: P;
  /** 1 on the first run. */
  readonly attempt: number;
  readonly maxAttempts: number;
}

/** Runs `fn` in the scope of the payload's tenant (outside any tenant when it names none). */
function inJobTenant<T>(job: Job, fn: () => Promise<T>): Promise<T> {
  const tenantId = job.payload.tenantId;
  return typeof tenantId === 'string' && tenantId !== ''
    ? runInTenant(tenantId, fn)
    : runWithoutTenant(fn);
}

export interface JobKind<P = Record<string, unknown>> {
  /** Runs the job; a throw retries it (with a back-off) until its attempts are spent. */
  run(job: Job<P>): Promise<void>;
  /** Called once when the last attempt has failed (e.g. to tell the applicant). */
  onGiveUp?(job: Job<P>, error: string): Promise<void>;
  /** Attempts before giving up (default 3). */
  readonly maxAttempts?: number;
  /**
   * The delay before the next attempt after `job` failed, or null to give up now (default: the
   * queue's `retryDelayMs` × attempt). Called only while attempts remain.
   */
  retryDelayMs?(job: Job<P>): number | null;
}

/** How long a finished job still counts against its owner when the next claim picks an owner. */
export const FAIRNESS_WINDOW_MS = 60_000;

export interface QueueOptions {
  readonly now: () => Date;
  /** How long a claim holds a job before another worker may take it (default 120 s). */
  readonly leaseMs?: number;
  /** How often an idle worker looks for work (default 1 s); `enqueue` wakes it at once. */
  readonly pollMs?: number;
  /** Delay before a failed job is tried again (default 5 s × attempt). */
  readonly retryDelayMs?: number;
  readonly onError?: (error: unknown, job?: Job) => void;
}

export interface EnqueueOptions {
  readonly delayMs?: number;
  /** The transaction to queue it in (it is queued only if that commits). */
  readonly db?: Pick<Database, 'insert'>;
}

export class JobQueue {
  readonly workerId = randomUUID();
  private readonly kinds = new Map<string, JobKind<never>>();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly retryDelayMs: number;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private current: Promise<void> | undefined;
  /** The job this worker is running now (handed back when a stop cannot wait for it). */
  private currentJob: Job | undefined;
  private readonly heartbeat: WorkerHeartbeat;

  constructor(
    private readonly db: Database,
    private readonly options: QueueOptions,
  ) {
    this.heartbeat = new WorkerHeartbeat(db, this.workerId, options.now);
    this.leaseMs = options.leaseMs ?? 120_000;
    this.pollMs = options.pollMs ?? 1000;
    this.retryDelayMs = options.retryDelayMs ?? 5000;
  }

  register<P>(kind: string, handler: JobKind<P>): this {
    this.kinds.set(kind, handler as unknown as JobKind<never>);
    return this;
  }

  /** The kinds this queue runs (the metrics name each, at zero too). */
  get kindNames(): readonly string[] {
    return [...this.kinds.keys()];
  }

  /**
   * Queues a job; its payload names its `tenantId` (the scope its handler runs in). Within a tenant's
   * scope (a request) the payload must name that tenant: a request cannot queue work for another.
   */
  async enqueue(
    kind: string,
    payload: Record<string, unknown>,
    options: EnqueueOptions = {},
  ): Promise<number> {
    const [row] = await this.insert(kind, payload, options).returning({ id: jobs.id });
    this.wake?.();
    return (row as { id: number }).id;
  }

  /**
   * Queues a job once per `key` (an event's id): false when a job of this kind with that key was
   * queued before (the unique index on kind and key; kept while the job's row is).
   */
  async enqueueOnce(
    kind: string,
    key: string,
    payload: Record<string, unknown>,
    options: EnqueueOptions = {},
  ): Promise<boolean> {
    const rows = await this.insert(kind, payload, options, key)
      .onConflictDoNothing()
      .returning({ id: jobs.id });
    this.wake?.();
    return rows.length > 0;
  }

  private insert(
    kind: string,
    payload: Record<string, unknown>,
    { delayMs = 0, db = this.db }: EnqueueOptions,
    key?: string,
  ) {
    const scoped = currentTenant();
    if (scoped !== undefined && payload.tenantId !== scoped)
      throw new Error(`A job queued in tenant "${scoped}" must carry it as its tenantId.`);
    const now = this.options.now();
    const handler = this.kinds.get(kind);
    return db.insert(jobs).values({
      kind,
      key,
      payload,
      maxAttempts: handler?.maxAttempts ?? 3,
      runAfter: new Date(now.getTime() + delayMs),
      createdAt: now,
      updatedAt: now,
    });
  }

  /**
   * Replaces the payload of a job this worker holds (a kind records what it has done, so that a
   * run after a crash sees it, or drops what it no longer needs).
   */
  async record(job: Job, payload: Record<string, unknown>): Promise<void> {
    await this.db
      .update(jobs)
      .set({ payload })
      .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.workerId)));
  }

  /** Removes queued (not running) jobs of a kind whose payload contains `match`. */
  async cancel(kind: string, match: Record<string, unknown>): Promise<void> {
    await this.db
      .delete(jobs)
      .where(
        and(
          eq(jobs.kind, kind),
          eq(jobs.status, 'queued'),
          sql`${jobs.payload} @> ${JSON.stringify(match)}::jsonb`,
        ),
      );
  }

  /**
   * Claims the next ready job of a registered kind, or null: queued and due, or running with an
   * expired lease. One statement; SKIP LOCKED lets concurrent workers pass over each other's rows.
   * Among ready jobs the owner with the least recent work goes first (round-robin), then the oldest.
   */
  async claim(): Promise<Job | null> {
    const kinds = [...this.kinds.keys()];
    if (kinds.length === 0) return null;
    const now = this.options.now();
    const ready = this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          inArray(jobs.kind, kinds),
          or(
            and(eq(jobs.status, 'queued'), lte(jobs.runAfter, now)),
            and(eq(jobs.status, 'running'), lt(jobs.lockedUntil, now)),
          ),
        ),
      )
      .orderBy(ownerLoad(now), asc(jobs.runAfter), asc(jobs.id))
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await this.db
      .update(jobs)
      .set({
        status: 'running',
        attempts: sql`${jobs.attempts} + 1`,
        lockedUntil: new Date(now.getTime() + this.leaseMs),
        lockedBy: this.workerId,
        updatedAt: now,
      })
      .where(inArray(jobs.id, ready))
      .returning();
    if (!row) return null;
    return {
      id: row.id,
      kind: row.kind,
      payload: row.payload,
      attempt: row.attempts,
      maxAttempts: row.maxAttempts,
    };
  }

  /** Claims and runs one job; false when there was none. */
  async runOnce(): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    this.currentJob = job;
    try {
      await this.runClaimed(job);
    } finally {
      this.currentJob = undefined;
    }
    return true;
  }

  private async runClaimed(job: Job): Promise<void> {
    const handler = this.kinds.get(job.kind) as JobKind | undefined;
    const mine = and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.workerId));
    try {
      await inJobTenant(job, () => handler!.run(job));
      await this.db
        .update(jobs)
        .set({ status: 'done', lockedUntil: null, updatedAt: this.options.now() })
        .where(mine);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.onError?.(error, job);
      const now = this.options.now();
      const delayMs =
        job.attempt >= job.maxAttempts
          ? null
          : handler!.retryDelayMs
            ? handler!.retryDelayMs(job)
            : this.retryDelayMs * job.attempt;
      if (delayMs === null) {
        await this.db
          .update(jobs)
          .set({ status: 'failed', lastError: message, lockedUntil: null, updatedAt: now })
          .where(mine);
        await inJobTenant(job, async () => handler!.onGiveUp?.(job, message));
      } else {
        await this.db
          .update(jobs)
          .set({
            status: 'queued',
            lastError: message,
            lockedUntil: null,
            runAfter: new Date(now.getTime() + delayMs),
            updatedAt: now,
          })
          .where(mine);
      }
    }
  }

  /** Starts the worker loop (one job at a time per process). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.heartbeat.start();
    this.loop = (async () => {
      while (this.running) {
        let worked = false;
        try {
          this.current = this.runOnce().then((did) => {
            worked = did;
          });
          await this.current;
        } catch (error) {
          this.options.onError?.(error);
        } finally {
          this.current = undefined;
        }
        if (!this.running) break;
        if (!worked)
          await new Promise<void>((resolve) => {
            this.wake = resolve;
            this.timer = setTimeout(resolve, this.pollMs);
          });
        this.wake = undefined;
      }
    })();
  }

  /**
   * Stops claiming and waits for the running job: at most `graceMs` (then the job is handed back to
   * the queue, this attempt not counted, for any worker to take at once), or not at all with
   * `abandon` (a simulated crash in tests: the job waits for its lease to run out).
   */
  async stop({
    abandon = false,
    graceMs = Infinity,
  }: { abandon?: boolean; graceMs?: number } = {}): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    if (abandon) return this.heartbeat.stop({ remove: false });
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      if (Number.isFinite(graceMs)) timer = setTimeout(() => resolve('expired'), graceMs);
    });
    const outcome = await Promise.race([this.loop?.then(() => 'stopped' as const), expired]);
    clearTimeout(timer);
    const job = this.currentJob;
    if (outcome === 'expired' && job) await this.handBack(job);
    await this.heartbeat.stop({ remove: true });
  }

  /** Returns a claimed job to the queue, due now, its attempt not counted. */
  private async handBack(job: Job): Promise<void> {
    const now = this.options.now();
    await this.db
      .update(jobs)
      .set({
        status: 'queued',
        attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
        lockedUntil: null,
        lockedBy: null,
        runAfter: now,
        updatedAt: now,
      })
      .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.workerId)));
  }
}

/** A job's owner: the tenant and applicant its payload names (jobs without one share one owner). */
const ownerOf = (table: string) =>
  sql.raw(
    `coalesce(${table}.payload->>'tenantId', '') || '/' || coalesce(${table}.payload->>'userId', '')`,
  );

/**
 * The ready job's owner's recent work: its jobs running now or finished within the fairness window
 * (the claim's order, so an owner who just had a turn waits for the others).
 */
function ownerLoad(now: Date) {
  const since = new Date(now.getTime() - FAIRNESS_WINDOW_MS);
  return sql`(select count(*) from ${jobs} as recent where ${ownerOf('recent')} = ${ownerOf('"jobs"')} and (recent.status = 'running' or (recent.status in ('done', 'failed') and recent.updated_at > ${since.toISOString()}::timestamptz)))`;
}
