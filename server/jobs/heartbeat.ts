/**
 * A running worker loop's heartbeat (D139): one row of `jobs` per worker, of the status `heartbeat`
 * (never claimed, never counted by the claim's fairness), its `updated_at` moved every
 * `HEARTBEAT_MS`. `/readyz` and `/metrics` read the newest one, so a web process knows a worker is
 * alive wherever it runs: its child, itself, or `npm run worker` on another machine. Each beat also
 * holds the leases of the jobs the worker is running (D176): a job longer than its lease (a ZIP of
 * thousands of PDFs) stays its worker's while that worker lives, and is claimed again only once it
 * stops beating.
 */
import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobs } from '../db/schema';

export const HEARTBEAT_STATUS = 'heartbeat';
export const HEARTBEAT_KIND = 'worker-heartbeat';
export const HEARTBEAT_MS = 10_000;
/** A worker whose last beat is older (three beats missed) is taken for dead. */
export const WORKER_ALIVE_SECONDS = 30;
/** Rows of workers gone this long are removed by any beat. */
const STALE_MS = 60 * 60 * 1000;

export class WorkerHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private rowId: number | undefined;
  private beating: Promise<void> = Promise.resolve();
  /** The first beat's write, once started: until it is done, the worker is starting (D195). */
  private first: Promise<void> | undefined;
  private firstDone = false;

  constructor(
    private readonly db: Database,
    private readonly workerId: string,
    private readonly now: () => Date,
    private readonly leases: { readonly ms: number; readonly jobs: ReadonlySet<{ id: number }> },
    private readonly everyMs = HEARTBEAT_MS,
  ) {}

  start(): void {
    if (this.timer) return;
    this.beat();
    this.first ??= this.beating.then(() => {
      this.firstDone = true;
    });
    this.timer = setInterval(() => this.beat(), this.everyMs);
    this.timer.unref();
  }

  /**
   * Started for the first time and its first beat not yet written (nor failed): the worker is
   * starting. Stopped, or started again after a stop, it is not.
   */
  get starting(): boolean {
    return this.timer !== undefined && this.first !== undefined && !this.firstDone;
  }

  /** Settles once the first beat has been written (or has failed); at once before any start. */
  firstBeat(): Promise<void> {
    return this.first ?? Promise.resolve();
  }

  /** Stops beating; `remove` also deletes the row (a stop, not a simulated crash). */
  async stop({ remove }: { remove: boolean }): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    if (!remove) return;
    await this.beating;
    const id = this.rowId;
    this.rowId = undefined;
    if (id !== undefined)
      await this.db
        .delete(jobs)
        .where(eq(jobs.id, id))
        .catch(() => undefined);
  }

  /** A beat that fails (the database away) is skipped: the worker is then not alive to others. */
  private beat(): void {
    this.beating = this.beating.then(() => this.write()).catch(() => undefined);
  }

  private async write(): Promise<void> {
    const now = this.now();
    const running = [...this.leases.jobs].map((job) => job.id);
    if (running.length > 0)
      await this.db
        .update(jobs)
        .set({ lockedUntil: new Date(now.getTime() + this.leases.ms) })
        .where(
          and(
            inArray(jobs.id, running),
            eq(jobs.lockedBy, this.workerId),
            eq(jobs.status, 'running'),
          ),
        );
    if (this.rowId !== undefined) {
      const moved = await this.db
        .update(jobs)
        .set({ updatedAt: now })
        .where(eq(jobs.id, this.rowId))
        .returning({ id: jobs.id });
      if (moved.length > 0) return;
    }
    await this.db
      .delete(jobs)
      .where(
        and(
          eq(jobs.status, HEARTBEAT_STATUS),
          lt(jobs.updatedAt, new Date(now.getTime() - STALE_MS)),
        ),
      );
    const [row] = await this.db
      .insert(jobs)
      .values({
        kind: HEARTBEAT_KIND,
        payload: {},
        status: HEARTBEAT_STATUS,
        lockedBy: this.workerId,
        runAfter: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: jobs.id });
    this.rowId = row?.id;
  }
}
