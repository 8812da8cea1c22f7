/**
 * The job queue with every kind the platform runs, and what the kinds need (storage, Chromium, the
 * conversion sandbox, the mailer). The web process builds it to queue jobs; whichever process runs the worker
 * loop (the worker process, D98) is the only one that ever launches Chromium or the sandbox: both
 * start on their first use.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from './config';
import { ACCOUNT_REQUEST_JOB, accountRequestJob } from './account';
import { vaultOf } from './crypto/answerVault';
import type { DatabaseHandle } from './db/client';
import { ConversionSandbox } from './conversion/sandbox';
import type { Mailer } from './mail/mailer';
import { MAIL_JOB, mailJob, QueuedMail } from './mail/mailJobs';
import { PasswordHasher } from './passwords';
import { ChromiumPrinter } from './pdf/chromium';
import { errorFields } from './security/logFields';
import {
  APPLICATION_PDF_JOB,
  applicationPdfJob,
  type ApplicationPdfContext,
} from './applicationPdf';
import {
  conversionJob,
  CONVERSION_JOB,
  uploadSweepJob,
  UPLOAD_SWEEP_JOB,
  type DocumentsContext,
} from './documents';
import { RETENTION_JOB, retentionSweepJob } from './retention';
import { PDF_BUNDLE_JOB, pdfBundleJob } from './staff';
import { createStorage } from './storage/create';
import type { TenantDirectory } from './tenants';
import { JobQueue } from './jobs/queue';

export interface JobSetup {
  readonly queue: JobQueue;
  readonly printer: ChromiumPrinter;
  readonly sandbox: ConversionSandbox;
  readonly documents: DocumentsContext;
  readonly pdfContext: ApplicationPdfContext;
  /** Where the services send mail: into the queue, sent by the worker with `mailer` (D138). */
  readonly mail: QueuedMail;
}

export function createJobs(
  config: ServerConfig,
  database: Pick<DatabaseHandle, 'db' | 'kind'>,
  mailer: Mailer,
  log: FastifyBaseLogger,
  directory: TenantDirectory,
  hasher = new PasswordHasher(config.argon2),
): JobSetup {
  const db = database.db;
  const queue = new JobQueue(db, {
    now: config.now,
    pollMs: config.jobs.pollMs,
    leaseMs: config.jobs.leaseMs,
    retention: config.jobRetention,
    // Serial claims stay off: their transaction hung a shutdown after a dropped connection (D136).
    serialClaims: false,
    onError: (error, job) =>
      log.warn({ job: job?.id, kind: job?.kind, err: errorFields(error) }, 'job failed'),
  });
  const printer = new ChromiumPrinter(
    config.chromiumPath ? { CHROMIUM_PATH: config.chromiumPath } : {},
  );
  const sandbox = new ConversionSandbox();
  const mail = new QueuedMail(queue, config);
  const documents: DocumentsContext = {
    db,
    config,
    mail,
    jobs: queue,
    hasher,
    log,
    institutionOf: (tenantId) => directory.institutionOf(tenantId),
    originOf: (tenantId) => directory.originOf(tenantId, config),
    storage: createStorage(config, vaultOf({ db, config }).keys),
    queue,
    printer,
    sandbox,
  };
  const pdfContext: ApplicationPdfContext = {
    ...documents,
    definitionsOf: (tenantId) => directory.get(tenantId)?.definitionAt,
  };
  queue.register(CONVERSION_JOB, conversionJob(documents));
  queue.register(UPLOAD_SWEEP_JOB, uploadSweepJob(documents));
  queue.register(APPLICATION_PDF_JOB, applicationPdfJob(pdfContext));
  queue.register(PDF_BUNDLE_JOB, pdfBundleJob(pdfContext));
  queue.register(
    RETENTION_JOB,
    retentionSweepJob(documents, () => directory.all().map((tenant) => tenant.id)),
  );
  queue.register(
    MAIL_JOB,
    mailJob({
      config,
      mailer,
      queue,
      log,
      collegeOf: (tenantId) => directory.collegeOf(tenantId, config),
    }),
  );
  // Sign-ups, codes asked again and reset links asked for: their account's part (D193).
  queue.register(
    ACCOUNT_REQUEST_JOB,
    accountRequestJob({
      db,
      config,
      mail,
      queue,
      originOf: (tenantId) => directory.originOf(tenantId, config),
    }),
  );
  return { queue, printer, sandbox, documents, pdfContext, mail };
}
