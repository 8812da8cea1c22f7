/**
 * The figures of this process, whichever server it runs (D139): prom-client's default metrics
 * (event-loop delay through `monitorEventLoopDelay`, memory, CPU, garbage collection), the request
 * durations, and the mails that could not be sent. No label holds an applicant's anything.
 */
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export const processRegistry = new Registry();

export const requestDuration = new Histogram({
  name: 'admission_http_request_duration_seconds',
  help: 'Time to answer a request, by method, route pattern and status',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processRegistry],
});

/** Counted by mail/mailer.ts where a send fails (SMTP refused, the outbox not writable). */
export const mailFailures = new Counter({
  name: 'admission_mail_failures_total',
  help: 'Mails this process could not send',
  registers: [processRegistry],
});

let collecting = false;

/** Starts the default metrics once per process (a process serving /metrics; not the worker). */
export function collectProcessMetrics(): void {
  if (collecting) return;
  collecting = true;
  collectDefaultMetrics({ register: processRegistry });
}
