import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config';
import type { Database } from '../db/client';
import type { InstitutionConfig } from '../../definitions';
import type { MailSender } from '../mail/mailJobs';
import type { PasswordHasher } from '../passwords';

/** What every service needs; built once per server. */
export interface ServiceContext {
  readonly db: Database;
  readonly config: ServerConfig;
  /** Mail goes out through the job queue (D138). */
  readonly mail: MailSender;
  readonly hasher: PasswordHasher;
  readonly log: FastifyBaseLogger;
  /** The tenant's institution configuration: its mails speak in its name (D145). */
  readonly institutionOf: (tenantId: string) => InstitutionConfig;
}

/** The applicant a call acts for: every query on their rows is scoped by both ids. */
export interface Applicant {
  readonly tenantId: string;
  readonly userId: string;
}
