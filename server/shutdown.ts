/**
 * Stopping within a bound (D99): every close step gets its own time limit and a name, the whole
 * close gets `SHUTDOWN_BOUND_MS`, and past it the process logs what was still pending (step names
 * and request routes, never request data) and exits anyway. A hook that never resolves therefore
 * costs its own limit, not the deploy.
 */
import type { Socket } from 'node:net';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** The whole shutdown, from the signal to the exit. */
export const SHUTDOWN_BOUND_MS = 10_000;
/** How long the running job may still take before it is handed back to the queue. */
export const JOB_GRACE_MS = 3_000;
/** Any other close step (browser and conversion worker, database, start-up tasks). */
export const CLOSE_STEP_MS = 2_000;

/** What is still open while the process closes: named steps and requests in flight. */
export class ClosingSteps {
  private readonly pending = new Set<string>();
  private readonly inFlight = new Map<string, number>();
  private openConnections = 0;

  private readonly steps: { name: string; step: () => Promise<unknown>; timeoutMs: number }[] = [];
  /** Fastify's own addHook, kept when `nameCloseHooks` wraps it (the steps' hook is not named). */
  private addHook: FastifyInstance['addHook'] | undefined;

  /**
   * Adds a close step under a name, limited to `timeoutMs`: past it the step is logged as left
   * behind and the close goes on. Steps run one after another in the order added (Fastify runs
   * `onClose` hooks last-added first, which would close the database before the job handed back).
   * With `atStart` the step begins as soon as the close does, beside the listener's close and the
   * requests still running, and is awaited in its turn: stopping the job worker cannot wait for a
   * slow request, or the bound is spent before the browser and the database are closed.
   */
  add(
    app: FastifyInstance,
    name: string,
    step: () => Promise<unknown>,
    timeoutMs = CLOSE_STEP_MS,
    { atStart = false }: { atStart?: boolean } = {},
  ): void {
    if (this.steps.length === 0)
      (this.addHook ?? app.addHook).call(app, 'onClose', async () => {
        for (const next of this.steps)
          await this.run(next.name, next.step, next.timeoutMs, app.log);
      });
    let started: Promise<unknown> | undefined;
    const once = () => {
      if (!started) {
        this.pending.add(name);
        started = step().finally(() => this.pending.delete(name));
      }
      return started;
    };
    if (atStart)
      app.addHook('preClose', async () => {
        void once().catch(() => undefined);
      });
    this.steps.push({ name, step: atStart ? once : step, timeoutMs });
  }

  /** Runs one step within its limit (the worker process's own close uses it without Fastify). */
  async run(
    name: string,
    step: () => Promise<unknown>,
    timeoutMs: number,
    log: Pick<FastifyBaseLogger, 'warn'>,
  ): Promise<void> {
    this.pending.add(name);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), timeoutMs);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([step().then(() => 'done' as const), expired]);
      if (outcome === 'expired') log.warn({ step: name, timeoutMs }, 'close step left behind');
      else this.pending.delete(name);
    } catch (error) {
      this.pending.delete(name);
      log.warn(
        { step: name, error: error instanceof Error ? error.name : 'unknown' },
        'close step failed',
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Counts requests by route pattern while they run (the log then names them, not their data), and
   * ends each keep-alive connection with the response that was in flight when the close began: the
   * server's close waits for every connection, and an idle one is closed only at its start.
   */
  trackRequests(app: FastifyInstance): void {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    app.addHook('onSend', async (_request, reply) => {
      if (closing) void reply.header('connection', 'close');
    });
    app.server.on('connection', (socket: Socket) => {
      this.openConnections += 1;
      socket.once('close', () => (this.openConnections -= 1));
    });
    const key = (method: string, route: string | undefined) => `${method} ${route ?? '(no route)'}`;
    app.addHook('onRequest', async (request) => {
      const name = key(request.method, request.routeOptions.url);
      this.inFlight.set(name, (this.inFlight.get(name) ?? 0) + 1);
    });
    app.addHook('onResponse', async (request) => {
      const name = key(request.method, request.routeOptions.url);
      const left = (this.inFlight.get(name) ?? 1) - 1;
      if (left > 0) this.inFlight.set(name, left);
      else this.inFlight.delete(name);
    });
  }

  /**
   * Names every `onClose` hook added from here on (also by plugins) by where it was added, so that
   * one that never resolves is named when the bound is reached: `onClose hook (file:line)`.
   */
  nameCloseHooks(app: FastifyInstance): void {
    const addHook = app.addHook;
    this.addHook = addHook;
    const pending = this.pending;
    const wrapped = function (this: FastifyInstance, name: string, hook: unknown) {
      if (name !== 'onClose' || typeof hook !== 'function')
        return Reflect.apply(addHook, this, [name, hook]) as FastifyInstance;
      const label = `onClose hook (${callerSite()})`;
      // Avvio tells a callback hook from a promise hook by its arity: keep it.
      const named =
        hook.length >= 2
          ? function (this: unknown, instance: unknown, done: (error?: Error) => void) {
              pending.add(label);
              Reflect.apply(hook, this, [
                instance,
                (error?: Error) => {
                  pending.delete(label);
                  done(error);
                },
              ]);
            }
          : async function (this: unknown, instance: unknown) {
              pending.add(label);
              try {
                return (await Reflect.apply(hook, this, [instance])) as unknown;
              } finally {
                pending.delete(label);
              }
            };
      return Reflect.apply(addHook, this, [name, named]) as FastifyInstance;
    };
    app.addHook = wrapped as unknown as FastifyInstance['addHook'];
  }

  /** Names of what has not finished: close steps, then requests as `METHOD /route ×count`. */
  stillPending(): string[] {
    return [
      ...this.pending,
      ...[...this.inFlight].map(([name, count]) => `request ${name} ×${count}`),
      ...(this.openConnections > 0 ? [`open connections ×${this.openConnections}`] : []),
    ];
  }
}

/** The first stack frame outside this file and Fastify: the code that added a hook, as `path:line`. */
function callerSite(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  const frame = frames.find(
    (line) => !line.includes('/server/shutdown.ts') && !line.includes('/node_modules/fastify/'),
  );
  const where = /\(?((?:file:\/\/)?\/[^()]+?):(\d+):\d+\)?$/.exec(frame?.trim() ?? '');
  if (!where) return 'unknown';
  const file = where[1]!.replace(/^file:\/\//, '');
  return `${path.relative(process.cwd(), file)}:${where[2]}`;
}

/**
 * Closes `close()` within `boundMs`; past it logs the pending names and calls `exit(1)`. Resolves
 * with the exit code it used.
 */
export async function closeWithin(
  close: () => Promise<unknown>,
  steps: Pick<ClosingSteps, 'stillPending'>,
  log: Pick<FastifyBaseLogger, 'info' | 'error'>,
  exit: (code: number) => void,
  boundMs = SHUTDOWN_BOUND_MS,
): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), boundMs);
  });
  let code: number;
  try {
    const outcome = await Promise.race([close().then(() => 'closed' as const), expired]);
    if (outcome === 'expired') {
      log.error({ pending: steps.stillPending(), boundMs }, 'shutdown bound reached; exiting');
      code = 1;
    } else {
      log.info('shut down');
      code = 0;
    }
  } catch (error) {
    log.error({ error: error instanceof Error ? error.name : 'unknown' }, 'shutdown failed');
    code = 1;
  } finally {
    clearTimeout(timer);
  }
  exit(code);
  return code;
}
