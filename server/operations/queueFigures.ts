/**
 * The queue's figures for `/metrics` (D139), read at scrape time with one statement over `jobs`:
 * per kind, the jobs waiting (due), scheduled, running, retrying after a failed attempt, given up,
 * done within the last minute, and the oldest waiting one's age; and the workers' heartbeats. It
 * reads the `jobs_ready` index's statuses only: waiting and failed jobs, and the last day's done
 * ones. Scrapes that come together share one read, and a read serves for a second.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { HEARTBEAT_KIND, HEARTBEAT_STATUS, WORKER_ALIVE_SECONDS } from '../jobs/heartbeat';

export interface KindFigures {
  readonly waiting: number;
  readonly scheduled: number;
  readonly running: number;
  readonly retrying: number;
  readonly failed: number;
  readonly doneLastMinute: number;
  readonly oldestWaitingSeconds: number;
}

export interface QueueFigures {
  readonly kinds: ReadonlyMap<string, KindFigures>;
  /** Workers whose heartbeat is fresh. */
  readonly workersAlive: number;
  /** Seconds since the newest heartbeat; undefined when no worker ever beat. */
  readonly heartbeatAgeSeconds: number | undefined;
}

/** How long a read of the figures serves the scrapes after it (real time): one query per second. */
export const REUSE_MS = 1000;
const DONE_WINDOW_MS = 60_000;
/** Done jobs are looked for among those due within this window (the index's range). */
const DONE_DUE_WITHIN_MS = 24 * 60 * 60 * 1000;

interface Row {
  kind: string;
  waiting: number;
  scheduled: number;
  running: number;
  retrying: number;
  failed: number;
  done_last_minute: number;
  oldest_waiting_seconds: number | null;
  workers_alive: number;
  heartbeat_age_seconds: number | null;
}

export class QueueFigureReader {
  private last: { at: number; figures: Promise<QueueFigures> } | undefined;

  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
  ) {}

  read(): Promise<QueueFigures> {
    const at = Date.now();
    if (this.last && at - this.last.at < REUSE_MS) return this.last.figures;
    const figures = this.query();
    this.last = { at, figures };
    // A failed read is not reused.
    figures.catch(() => {
      if (this.last?.figures === figures) this.last = undefined;
    });
    return figures;
  }

  private async query(): Promise<QueueFigures> {
    const now = this.now();
    const nowText = now.toISOString();
    const minuteAgo = new Date(now.getTime() - DONE_WINDOW_MS).toISOString();
    const dayAgo = new Date(now.getTime() - DONE_DUE_WITHIN_MS).toISOString();
    const aliveSince = new Date(now.getTime() - WORKER_ALIVE_SECONDS * 1000).toISOString();
    const result = (await this.db.execute(sql`
      select kind,
        count(*) filter (where status = 'queued' and run_after <= ${nowText}::timestamptz)::int as waiting,
        count(*) filter (where status = 'queued' and run_after > ${nowText}::timestamptz)::int as scheduled,
        count(*) filter (where status = 'running')::int as running,
        count(*) filter (where status = 'queued' and last_error is not null)::int as retrying,
        count(*) filter (where status = 'failed')::int as failed,
        count(*) filter (where status = 'done')::int as done_last_minute,
        extract(epoch from ${nowText}::timestamptz - min(run_after) filter (where status = 'queued' and run_after <= ${nowText}::timestamptz))::float8 as oldest_waiting_seconds,
        count(*) filter (where status = ${HEARTBEAT_STATUS} and updated_at > ${aliveSince}::timestamptz)::int as workers_alive,
        extract(epoch from ${nowText}::timestamptz - max(updated_at) filter (where status = ${HEARTBEAT_STATUS}))::float8 as heartbeat_age_seconds
      from jobs
      where status in ('queued', 'running', 'failed', ${HEARTBEAT_STATUS})
        or (status = 'done' and run_after > ${dayAgo}::timestamptz and updated_at > ${minuteAgo}::timestamptz)
      group by kind`)) as unknown as { rows: Row[] };
    const kinds = new Map<string, KindFigures>();
    let workersAlive = 0;
    let heartbeatAgeSeconds: number | undefined;
    for (const row of result.rows) {
      if (row.kind === HEARTBEAT_KIND) {
        workersAlive = Number(row.workers_alive);
        heartbeatAgeSeconds = row.heartbeat_age_seconds ?? undefined;
        continue;
      }
      kinds.set(row.kind, {
        waiting: Number(row.waiting),
        scheduled: Number(row.scheduled),
        running: Number(row.running),
        retrying: Number(row.retrying),
        failed: Number(row.failed),
        doneLastMinute: Number(row.done_last_minute),
        oldestWaitingSeconds: Math.max(0, Number(row.oldest_waiting_seconds ?? 0)),
      });
    }
    return { kinds, workersAlive, heartbeatAgeSeconds };
  }
}
