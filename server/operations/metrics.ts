/**
 * `/metrics` (D139): Prometheus text of this process's figures (./processMetrics.ts) and of the
 * platform it serves: the queue per kind and the workers (read at scrape time, ./queueFigures.ts),
 * and the PostgreSQL pool. Labels are kinds, states, routes and methods: never an applicant, an
 * address or a tenant.
 */
import { Gauge, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/client';
import { collectProcessMetrics, processRegistry } from '../processMetrics';
import { QueueFigureReader, type KindFigures, type QueueFigures } from './queueFigures';

const JOB_STATES = ['waiting', 'scheduled', 'running', 'retrying', 'failed'] as const;

export class ServerMetrics {
  readonly contentType = processRegistry.contentType;
  private readonly registry: Registry;
  private readonly reader: QueueFigureReader;
  private figures: QueueFigures | undefined;

  constructor(
    database: DatabaseHandle,
    /** The kinds the queue runs: each is named, at zero too. */
    private readonly kindNames: readonly string[],
    now: () => Date,
  ) {
    collectProcessMetrics();
    this.reader = new QueueFigureReader(database.db, now);
    const own = new Registry();
    const registers = [own];
    const latest = () => this.figures;
    const kindFigures = (): [string, KindFigures | undefined][] => {
      const kinds = latest()?.kinds ?? new Map<string, KindFigures>();
      const names = new Set([...this.kindNames, ...kinds.keys()]);
      return [...names].sort().map((kind) => [kind, kinds.get(kind)]);
    };
    new Gauge({
      name: 'admission_jobs',
      help: 'Jobs in the queue by kind and state (waiting: due and not taken; failed: given up)',
      labelNames: ['kind', 'state'] as const,
      registers,
      collect() {
        this.reset();
        for (const [kind, figures] of kindFigures())
          for (const state of JOB_STATES) this.set({ kind, state }, figures?.[state] ?? 0);
      },
    });
    new Gauge({
      name: 'admission_jobs_oldest_waiting_seconds',
      help: 'How long the oldest due job of each kind has waited for a worker',
      labelNames: ['kind'] as const,
      registers,
      collect() {
        this.reset();
        for (const [kind, figures] of kindFigures())
          this.set({ kind }, figures?.oldestWaitingSeconds ?? 0);
      },
    });
    new Gauge({
      name: 'admission_jobs_done_last_minute',
      help: 'Jobs of each kind finished within the last minute (application-pdf: PDFs ready)',
      labelNames: ['kind'] as const,
      registers,
      collect() {
        this.reset();
        for (const [kind, figures] of kindFigures())
          this.set({ kind }, figures?.doneLastMinute ?? 0);
      },
    });
    new Gauge({
      name: 'admission_workers_alive',
      help: 'Job workers whose heartbeat is fresh',
      registers,
      collect() {
        this.set(latest()?.workersAlive ?? 0);
      },
    });
    new Gauge({
      name: 'admission_worker_heartbeat_age_seconds',
      help: 'Seconds since the newest heartbeat of any job worker (+Inf: none ever beat)',
      registers,
      collect() {
        this.set(latest()?.heartbeatAgeSeconds ?? Infinity);
      },
    });
    const pool = database.poolStats;
    if (pool) {
      new Gauge({
        name: 'admission_db_pool_connections',
        help: 'PostgreSQL connections of this process by state',
        labelNames: ['state'] as const,
        registers,
        collect() {
          const stats = pool();
          this.set({ state: 'total' }, stats.total);
          this.set({ state: 'idle' }, stats.idle);
        },
      });
      new Gauge({
        name: 'admission_db_pool_waiting',
        help: 'Queries of this process waiting for a PostgreSQL connection',
        registers,
        collect() {
          this.set(pool().waiting);
        },
      });
    }
    this.registry = Registry.merge([processRegistry, own]);
  }

  /** The scrape's text: the queue read once (shared by scrapes that come together). */
  async scrape(): Promise<string> {
    this.figures = await this.reader.read();
    return this.registry.metrics();
  }
}
