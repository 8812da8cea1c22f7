/**
 * The job worker as a child of the web process (D98): `server/worker.ts` (its bundle when this runs
 * from one, D141), forked with an IPC channel. On PGlite the child's statements come back over that
 * channel to the database this process owns; on PostgreSQL the child opens its own pool. A child
 * that dies is started again (its job is taken again after its lease); a stop asks it to finish and
 * kills it past its bound. The child runs at a low priority, unable to raise it (./priority.ts,
 * D116).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/client';
import { serveDatabaseOverIpc } from '../db/ipc';
import { nodeArgs } from '../entries';
import { lowerPriority, withoutPriorityRaise } from './priority';

/** Set in the child's environment when its database is the parent's PGlite. */
export const IPC_DATABASE_ENV = 'WORKER_DATABASE_IPC';
/** How long a stopping worker may take (its own bound: job grace, browsers, database). */
export const WORKER_STOP_MS = 7_000;
const RESTART_DELAY_MS = 1_000;
/**
 * How long the first worker may take to run (its modules, its database, its first heartbeat) before
 * `/readyz` says it failed rather than that it is starting (D195).
 */
export const WORKER_START_MS = 120_000;
/** The message a worker sends its parent once its first heartbeat is written. */
export const WORKER_RUNNING = 'worker-running';

export class WorkerProcess {
  private child: ChildProcess | undefined;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopped: Promise<void> | undefined;
  /** Times a worker was started (tests read restarts). */
  starts = 0;
  /** When the first worker was started; whether a worker has run, or one stopped on its own. */
  private firstStartAt: number | undefined;
  private hasRun = false;
  private hasFailed = false;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly log: FastifyBaseLogger,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    if (this.stopping) return;
    const pglite = this.database.kind === 'pglite' ? this.database.pglite : undefined;
    const [command, args] = withoutPriorityRaise(process.execPath, nodeArgs('server/worker.ts'));
    const child = spawn(command, args, {
      serialization: 'advanced',
      env: { ...this.env, ...(pglite ? { [IPC_DATABASE_ENV]: '1' } : {}) },
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    if (child.pid !== undefined) lowerPriority(child.pid);
    this.starts += 1;
    this.firstStartAt ??= Date.now();
    this.child = child;
    child.on('message', (message: unknown) => {
      if ((message as { type?: unknown } | null)?.type === WORKER_RUNNING) this.hasRun = true;
    });
    if (pglite) serveDatabaseOverIpc(child, pglite);
    // However this process ends (its bound reached, an uncaught error), its worker ends with it: a
    // worker left behind would hold a job and Chromium past the deploy's bound.
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.on('exit', (code, signal) => {
      process.off('exit', killOnExit);
      if (this.child === child) this.child = undefined;
      if (this.stopping) return;
      this.hasFailed = true;
      this.log.warn({ code, signal }, 'job worker process stopped; starting another');
      this.restartTimer = setTimeout(() => this.start(), RESTART_DELAY_MS);
    });
  }

  /**
   * The first worker is on its way (`/readyz` says `starting`, D195): started, not yet running,
   * none has stopped on its own, and within `WORKER_START_MS`. A worker that ran, or stopped on its
   * own, and no longer beats has failed.
   */
  starting(now = Date.now()): boolean {
    return (
      !this.stopping &&
      !this.hasRun &&
      !this.hasFailed &&
      this.child !== undefined &&
      this.firstStartAt !== undefined &&
      now - this.firstStartAt < WORKER_START_MS
    );
  }

  /**
   * Asks the worker to stop (SIGTERM), and kills it if it is still there after `WORKER_STOP_MS`.
   * Called again, waits for the same stop.
   */
  stop(): Promise<void> {
    this.stopped ??= this.stopChild();
    return this.stopped;
  }

  private async stopChild(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), WORKER_STOP_MS);
    await exited;
    clearTimeout(timer);
  }
}
