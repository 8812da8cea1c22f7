/**
 * Durable mail (D138): every mail is a job of the queue (D30), queued once per event (its key) in
 * the request that caused it, sent by the job worker, tried again with a doubling wait across
 * restarts and SMTP outages, and given up once its code or link has expired or after
 * MAIL_GIVE_UP_HOURS. The job holds what rebuilds the mail: the template's name and, sealed, the
 * address and the template's arguments (codes and links are secrets); once sent, only the name and
 * the time stay.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config';
import type { Database } from '../db/client';
import type { Job, JobKind, JobQueue } from '../jobs/queue';
import { sha256 } from '../secrets';
import { errorFields } from '../security/logFields';
import { open, seal } from '../crypto/secretBox';
import type { MailMessage, Mailer } from './mailer';
import { countMail } from './mailStats';
import { mails, type MailCollege } from './templates';

export const MAIL_JOB = 'mail';
/** Attempts are not what ends a mail's tries: its give-up time is (see `retryDelayMs`). */
const MAIL_MAX_ATTEMPTS = 100_000;

type Templates = typeof mails;
export type MailTemplate = keyof Templates;
/** A template's arguments between the address and the college. */
export type MailArgs<T extends MailTemplate> =
  Parameters<Templates[T]> extends [string, ...infer Args, MailCollege] ? Args : never;

export interface MailRequest<T extends MailTemplate = MailTemplate> {
  readonly template: T;
  readonly to: string;
  readonly args: MailArgs<T>;
  /**
   * What the mail is about, unique for the template (a code's account and hash, a link's token
   * hash): one mail per event, however often it is queued.
   */
  readonly event: string;
  /** When its code or link stops working: a mail not sent by then is given up. */
  readonly expiresAt?: Date;
}

export interface MailSender {
  /** Queues a mail (in `db`'s transaction when given: then only if that commits). */
  send<T extends MailTemplate>(
    tenantId: string,
    mail: MailRequest<T>,
    options?: { readonly db?: Pick<Database, 'insert'> },
  ): Promise<void>;
}

interface MailPayload extends Record<string, unknown> {
  readonly tenantId: string;
  readonly template: MailTemplate;
  readonly messageId: string;
  readonly giveUpAt: string;
  /** `{ to, args }` sealed with the mail key (server/crypto/secretBox.ts); gone once sent. */
  readonly sealed?: string;
  /** Set once the SMTP server (or the outbox) took the mail: a run after a crash sends nothing. */
  readonly sentAt?: string;
  readonly givenUpAt?: string;
}

const sealedWith = (payload: Pick<MailPayload, 'tenantId' | 'messageId'>) =>
  `${payload.tenantId}:${payload.messageId}`;

/** The Message-ID of an event's mail: every try carries the same one (D138). */
function messageIdOf(config: ServerConfig, key: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(config.mailFrom)?.[1] ?? 'localhost';
  return `<${sha256(`mail:${key}`).slice(0, 32)}@${domain}>`;
}

function payloadOf(
  config: ServerConfig,
  tenantId: string,
  key: string,
  mail: MailRequest,
): MailPayload {
  const now = config.now().getTime();
  const giveUpAt = Math.min(now + config.mail.giveUpMs, mail.expiresAt?.getTime() ?? Infinity);
  const messageId = messageIdOf(config, key);
  const secret = JSON.stringify({ to: mail.to, args: mail.args });
  return {
    tenantId,
    template: mail.template,
    messageId,
    giveUpAt: new Date(giveUpAt).toISOString(),
    sealed: seal(config, secret, sealedWith({ tenantId, messageId }), 'mail:v1'),
  };
}

/**
 * The tenant's college, which its mails speak in the name of (D145) and link to (D196): read when
 * the mail is sent, so a mail queued before a change of words is sent with the new ones.
 */
export type CollegeOf = (tenantId: string) => MailCollege;

function render(config: ServerConfig, payload: MailPayload, collegeOf: CollegeOf): MailMessage {
  if (!payload.sealed) throw new Error('The mail holds no message.');
  const { to, args } = JSON.parse(open(config, payload.sealed, sealedWith(payload), 'mail:v1')) as {
    to: string;
    args: unknown[];
  };
  const template = mails[payload.template] as (...all: unknown[]) => MailMessage;
  return {
    ...template(to, ...args, collegeOf(payload.tenantId)),
    messageId: payload.messageId,
  };
}

/** Queues mail as jobs: what the services send through. */
export class QueuedMail implements MailSender {
  constructor(
    private readonly queue: JobQueue,
    private readonly config: ServerConfig,
  ) {}

  async send<T extends MailTemplate>(
    tenantId: string,
    mail: MailRequest<T>,
    options: { readonly db?: Pick<Database, 'insert'> } = {},
  ): Promise<void> {
    const key = `${tenantId}:${mail.template}:${mail.event}`;
    const payload = payloadOf(this.config, tenantId, key, mail as MailRequest);
    if (await this.queue.enqueueOnce(MAIL_JOB, key, payload, options)) countMail('queued');
  }
}

/**
 * Sends at once and logs a failure: for the command line run without a server (no worker would
 * send a queued mail; it prints the link as well).
 */
export class DirectMail implements MailSender {
  constructor(
    private readonly mailer: Mailer,
    private readonly config: ServerConfig,
    private readonly log: FastifyBaseLogger,
    private readonly collegeOf: CollegeOf,
  ) {}

  async send<T extends MailTemplate>(tenantId: string, mail: MailRequest<T>): Promise<void> {
    const key = `${tenantId}:${mail.template}:${mail.event}`;
    const payload = payloadOf(this.config, tenantId, key, mail as MailRequest);
    await this.mailer
      .send(render(this.config, payload, this.collegeOf))
      .catch((error: unknown) =>
        this.log.error({ err: errorFields(error) }, 'mail could not be sent'),
      );
  }
}

export interface MailJobContext {
  readonly config: ServerConfig;
  readonly mailer: Mailer;
  readonly queue: JobQueue;
  readonly log: FastifyBaseLogger;
  readonly collegeOf: CollegeOf;
}

/** What stays of a mail's job once it is sent or given up: no address, no code, no link. */
function spent(payload: MailPayload, field: 'sentAt' | 'givenUpAt', at: Date): MailPayload {
  const { sealed: _sealed, ...kept } = payload;
  return { ...kept, [field]: at.toISOString() };
}

/** The job that sends one mail (registered by server/jobKinds.ts). */
export function mailJob(ctx: MailJobContext): JobKind<MailPayload> {
  const { config } = ctx;
  return {
    maxAttempts: MAIL_MAX_ATTEMPTS,
    async run(job: Job<MailPayload>) {
      if (job.payload.sentAt) return;
      if (config.now().getTime() > Date.parse(job.payload.giveUpAt))
        throw new Error('The mail was not sent before its give-up time.');
      await ctx.mailer.send(render(config, job.payload, ctx.collegeOf));
      // Between the server's acceptance and this statement a crash means one more send: with the
      // same Message-ID (D138).
      await ctx.queue.record(job, spent(job.payload, 'sentAt', config.now()));
      countMail('sent');
    },
    retryDelayMs(job) {
      const now = config.now().getTime();
      const giveUpAt = Date.parse(job.payload.giveUpAt);
      if (now >= giveUpAt) return null;
      countMail('retried');
      const wait = Math.min(config.mail.retryMs * 2 ** (job.attempt - 1), config.mail.retryMaxMs);
      return Math.min(wait, giveUpAt - now);
    },
    async onGiveUp(job) {
      await ctx.queue.record(job, spent(job.payload, 'givenUpAt', config.now()));
      countMail('given_up');
      ctx.log.error(
        {
          event: 'mail.given_up',
          job: job.id,
          template: job.payload.template,
          attempts: job.attempt,
          queuedUntil: job.payload.giveUpAt,
        },
        'mail given up',
      );
    },
  };
}
