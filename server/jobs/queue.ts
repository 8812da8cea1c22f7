/**
 * The durable job queue (docs/decisions/ D30): a `jobs` table claimed with `SELECT ... FOR UPDATE
 * SKIP LOCKED`, so any number of server processes on one PostgreSQL (or the one process on PGlite)
 * take each job exactly once. A claim holds a lease (`locked_until`); a worker that dies holding a
 * job leaves it to be claimed again once the lease has run out, so a restart resumes it.
 *
 * Claims are fair between owners (D71, D136): the next job is the oldest ready one of the owner
 * (the payload's tenant and applicant) with no job running, then with the fewest finished in the
 * last minute, so one applicant's heavy files cannot hold back another's small one. A worker runs
 * one job at a time in each lane (./claimOrder.ts): a Word file's print never holds up an image.
 * Finished jobs are pruned after their retention (./prune.ts).
 *
 * Adding a kind is one call: `queue.register('application-pdf', handler)`. Every payload carries the
 * `tenantId` it belongs to: `run` and `onGiveUp` run in that tenant's scope (docs/decisions/ D56), so
 * their queries see that tenant's rows only; a payload without one runs outside any tenant and sees
 * nothing. The queue's own statements on `jobs` (a table outside row-level security) need no tenant.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobs } from '../db/schema';
import { currentTenant, runInTenant, runWithoutTenant } from '../db/tenantScope';
import { WorkerHeartbeat } from './heartbeat';
import { claimOrder, LANES, readyJobs, type JobLane } from './claimOrder';
import { pruneJobs } from './prune';
export { FAIRNESS_WINDOW_MS, LANES, type JobLane } from './claimOrder';

export interface Job<P = Record<string, unknown>> {
  readonly id: number;
  readonly kind: string;
  readonly lane: JobLane;
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
  /** The lane its jobs run in unless `enqueue` names one (default `fast`). */
  readonly lane?: JobLane;
}

/** How often a running worker prunes finished jobs. */
export const PRUNE_EVERY_MS = 10 * 60_000;

export interface QueueOptions {
  readonly now: () => Date;
  /** How long a claim holds a job before another worker may take it (default 120 s). */
  readonly leaseMs?: number;
  /** How often an idle worker looks for work (1 s); `enqueue` wakes it after this turn (D193). */
  readonly pollMs?: number;
  /** Delay before a failed job is tried again (default 5 s × attempt). */
  readonly retryDelayMs?: number;
  readonly onError?: (error: unknown, job?: Job) => void;
  /** How long finished jobs are kept; without it, the worker never prunes. */
  readonly retention?: Parameters<typeof pruneJobs>[2];
  /** How often the running worker prunes (default `PRUNE_EVERY_MS`). */
  readonly pruneEveryMs?: number;
  /** How often the running worker beats and renews its jobs' leases (default `HEARTBEAT_MS`). */
  readonly heartbeatMs?: number;
  /**
   * Claims one after another across workers (PostgreSQL, where workers claim on connections of
   * their own): without it, claims at the same instant may give one owner two slots (D136).
   */
  readonly serialClaims?: boolean;
}

export interface EnqueueOptions {
  readonly delayMs?: number;
  /** The lane it runs in (default: its kind's). */
  readonly lane?: JobLane;
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
  private readonly timers = new Set<NodeJS.Timeout>();
  private loops: Promise<void>[] = [];
  private readonly wakers = new Set<() => void>();
  private pruneTimer: NodeJS.Timeout | undefined;
  private pruning: Promise<unknown> | undefined;
  /** The jobs this worker is running now, one per lane (handed back when a stop cannot wait). */
  private readonly currentJobs = new Set<Job>();
  readonly heartbeat: WorkerHeartbeat; // `/readyz` reads whether it is starting (D195)

  constructor(
    private readonly db: Database,
    private readonly options: QueueOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 120_000;
    const held = { ms: this.leaseMs, jobs: this.currentJobs };
    this.heartbeat = new WorkerHeartbeat(db, this.workerId, options.now, held, options.heartbeatMs);
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
    setImmediate(() => [...this.wakers].forEach((wake) => wake()));
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
    setImmediate(() => [...this.wakers].forEach((wake) => wake()));
    return rows.length > 0;
  }

  private insert(
    kind: string,
    payload: Record<string, unknown>,
    { delayMs = 0, db = this.db, lane }: EnqueueOptions,
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
      lane: lane ?? handler?.lane ?? 'fast',
      maxAttempts: handler?.maxAttempts ?? 3,
      runAfter: new Date(now.getTime() + delayMs),
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Replaces the payload of a job this worker holds (what it has done, for a run after a crash). */
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
   * Claims the next ready job of a registered kind (in `lane`, or any), or null: queued and due, or
   * running with an expired lease. One statement; SKIP LOCKED lets concurrent workers pass over each
   * other's rows. Owners take turns (./claimOrder.ts), then the oldest job goes first.
   */
  async claim(lane?: JobLane): Promise<Job | null> {
    const kinds = [...this.kinds.keys()];
    if (kinds.length === 0) return null;
    const now = this.options.now();
    const claimIn = (db: Pick<Database, 'select' | 'update'>) => {
      const ready = db
        .select({ id: jobs.id })
        .from(jobs)
        .where(readyJobs(kinds, now, lane))
        .orderBy(...claimOrder(now))
        .limit(1)
        .for('update', { skipLocked: true });
      return db
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
    };
    // Claims made at once would each count the others' owners as idle (a statement sees what was
    // committed when it began): on PostgreSQL they take turns, each after the last has committed.
    const [row] = this.options.serialClaims
      ? await this.db.transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('job-claim', 0))`);
          return claimIn(tx);
        })
      : await claimIn(this.db);
    if (!row) return null;
    return {
      id: row.id,
      kind: row.kind,
      lane: row.lane as JobLane,
      payload: row.payload,
      attempt: row.attempts,
      maxAttempts: row.maxAttempts,
    };
  }

  /** Claims and runs one job (of `lane`, or any); false when there was none. */
  async runOnce(lane?: JobLane): Promise<boolean> {
    const job = await this.claim(lane);
    if (!job) return false;
    this.currentJobs.add(job);
    try {
      await this.runClaimed(job);
    } finally {
      this.currentJobs.delete(job);
    }
    return true;
  }

  /** Deletes the finished jobs past their retention (a no-op without one); returns how many. */
  async prune(): Promise<number> {
    if (!this.options.retention) return 0;
    return pruneJobs(this.db, this.options.now(), this.options.retention);
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

  /** Starts the worker: a loop per lane (one job at a time in each), and the pruning. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.heartbeat.start();
    this.loops = LANES.map((lane) => this.runLane(lane));
    if (this.options.retention) {
      const prune = () => {
        this.pruning = this.prune()
          .catch((error: unknown) => this.options.onError?.(error))
          .finally(() => {
            this.pruning = undefined;
            if (this.running)
              this.pruneTimer = setTimeout(prune, this.options.pruneEveryMs ?? PRUNE_EVERY_MS);
          });
      };
      prune();
    }
  }

  private async runLane(lane: JobLane): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.runOnce(lane);
      } catch (error) {
        this.options.onError?.(error);
      }
      if (!this.running) break;
      if (!worked)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(wake, this.pollMs);
          const wakers = this.wakers;
          const timers = this.timers;
          function wake() {
            clearTimeout(timer);
            timers.delete(timer);
            wakers.delete(wake);
            resolve();
          }
          this.timers.add(timer);
          this.wakers.add(wake);
        });
    }
  }

  /**
   * Stops claiming and waits for the running jobs: at most `graceMs` (then each job still running is
   * handed back to the queue, this attempt not counted, for any worker to take at once), or not at
   * all with `abandon` (a simulated crash in tests: the jobs wait for their lease to run out).
   */
  async stop({
    abandon = false,
    graceMs = Infinity,
  }: { abandon?: boolean; graceMs?: number } = {}): Promise<void> {
    this.running = false;
    clearTimeout(this.pruneTimer);
    for (const wake of [...this.wakers]) wake();
    if (abandon) return this.heartbeat.stop({ remove: false });
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      if (Number.isFinite(graceMs)) timer = setTimeout(() => resolve('expired'), graceMs);
    });
    const finished = Promise.all([...this.loops, this.pruning]).then(() => 'stopped' as const);
    const outcome = await Promise.race([finished, expired]);
    clearTimeout(timer);
    if (outcome === 'expired')
      await Promise.all([...this.currentJobs].map((job) => this.handBack(job)));
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
