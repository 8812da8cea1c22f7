import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config';
import type { Database } from '../db/client';
import type { DefinitionAt } from '../tenant';
import type { InstitutionConfig } from '../../definitions';
import type { JobQueue } from '../jobs/queue';
import type { MailSender } from '../mail/mailJobs';
import type { PasswordHasher } from '../passwords';

/** What every service needs; built once per server. */
export interface ServiceContext {
  readonly db: Database;
  readonly config: ServerConfig;
  /** Mail goes out through the job queue (D138). */
  readonly mail: MailSender;
  /**
   * Work a request leaves to the job worker (D30): what its answer must neither wait for nor
   * reveal, such as what an account request does for the address it names (D193).
   */
  readonly jobs: Pick<JobQueue, 'enqueue'>;
  readonly hasher: PasswordHasher;
  readonly log: FastifyBaseLogger;
  /** The tenant's institution configuration: its mails speak in its name (D145). */
  readonly institutionOf: (tenantId: string) => InstitutionConfig;
  /**
   * Where the tenant's links lead (tenantOrigin in server/tenantOrigin.ts, D196): its own host,
   * never the request's Host header; every link a mail or a service link carries starts with it.
   */
  readonly originOf: (tenantId: string) => string;
}

/** A tenant's published definitions: the latest version's number and each version by number. */
export interface PublishedDefinitions {
  readonly definitionVersion: number;
  readonly definitionAt: DefinitionAt;
}

/** The applicant a call acts for: every query on their rows is scoped by both ids. */
export interface Applicant {
  readonly tenantId: string;
  readonly userId: string;
}
