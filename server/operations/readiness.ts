/**
 * `/readyz` (D139): ready once the database answers, holds every migration this code was built with,
 * and a job worker is alive (a heartbeat within `WORKER_ALIVE_SECONDS`, ../jobs/heartbeat.ts).
 * `/healthz` stays the cheap liveness check. Without a live worker, the worker check says
 * `starting` while the worker this process started itself is on its way, and `failed` otherwise
 * (D195).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { MIGRATIONS_FOLDER } from '../db/client';
import { HEARTBEAT_STATUS, WORKER_ALIVE_SECONDS } from '../jobs/heartbeat';

export type CheckOutcome = 'ok' | 'failed';
/** The worker's: `starting` until the worker this process started has run (D195). */
export type WorkerOutcome = CheckOutcome | 'starting';

export interface Readiness {
  readonly ready: boolean;
  readonly checks: {
    readonly database: CheckOutcome;
    readonly migrations: CheckOutcome;
    readonly worker: WorkerOutcome;
  };
}

/**
 * Whether the worker this process runs (its child, or its own loop) has been started and has not
 * yet run, nor failed. Workers started apart (`JOB_WORKER=none`) are not known here: never.
 */
export type WorkerStarting = () => boolean;

/** The newest migration of this build: drizzle records each applied one with its journal `when`. */
const NEWEST_MIGRATION: number = Math.max(
  ...(
    JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: { when: number }[];
    }
  ).entries.map((entry) => entry.when),
);

/** PostgreSQL's "insufficient privilege": an application role not granted drizzle's schema. */
const INSUFFICIENT_PRIVILEGE = '42501';

export class ReadinessCheck {
  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
    private readonly workerStarting: WorkerStarting = () => false,
  ) {}

  async check(): Promise<Readiness> {
    const aliveSince = new Date(this.now().getTime() - WORKER_ALIVE_SECONDS * 1000);
    let workers: number;
    try {
      const result = (await this.db.execute(
        sql`select count(*)::int as workers from jobs where status = ${HEARTBEAT_STATUS} and updated_at > ${aliveSince.toISOString()}::timestamptz`,
      )) as unknown as { rows: { workers: number }[] };
      workers = Number(result.rows[0]?.workers ?? 0);
    } catch {
      return {
        ready: false,
        checks: { database: 'failed', migrations: 'failed', worker: 'failed' },
      };
    }
    const migrations = await this.migrationsApplied();
    const worker: WorkerOutcome =
      workers > 0 ? 'ok' : this.workerStarting() ? 'starting' : 'failed';
    return {
      ready: migrations === 'ok' && worker === 'ok',
      checks: { database: 'ok', migrations, worker },
    };
  }

  /**
   * This process applied the migrations before it listened; this sees that the database still holds
   * them (not restored from an older dump). A role that may not read drizzle's table passes: the
   * start's migration was the check.
   */
  private async migrationsApplied(): Promise<CheckOutcome> {
    try {
      const result = (await this.db.execute(
        sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`,
      )) as unknown as { rows: { newest: string | null }[] };
      return Number(result.rows[0]?.newest ?? 0) >= NEWEST_MIGRATION ? 'ok' : 'failed';
    } catch (error) {
      // drizzle wraps the driver's error: its code is on the cause.
      const { code, cause } = error as { code?: string; cause?: { code?: string } };
      return (code ?? cause?.code) === INSUFFICIENT_PRIVILEGE ? 'ok' : 'failed';
    }
  }
}
