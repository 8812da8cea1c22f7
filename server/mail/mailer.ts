/**
 * Mail: SMTP through nodemailer when SMTP_URL is set; otherwise the outbox, one JSON line per message
 * in DATA_DIR/outbox.jsonl, so a person running the embedded default (and the tests) can read codes.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { mailFailures } from '../processMetrics';

export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The same for every try of one event's mail (D138), so a receiver can drop a second copy. */
  readonly messageId?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** A send that throws is counted in `admission_mail_failures_total` (D139), then rethrown. */
async function counted(send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (error) {
    mailFailures.inc();
    throw error;
  }
}

export class OutboxMailer implements Mailer {
  readonly file: string;

  constructor(
    dataDir: string,
    private readonly log: FastifyBaseLogger,
    /** Development only: also log the text (it holds codes and links). */
    private readonly logText: boolean,
  ) {
    this.file = path.join(dataDir, 'outbox.jsonl');
  }

  async send(message: MailMessage): Promise<void> {
    const line = JSON.stringify({ ...message, sentAt: new Date().toISOString() });
    await counted(async () => {
      await mkdir(path.dirname(this.file), { recursive: true });
      await appendFile(this.file, `${line}\n`, 'utf8');
    });
    if (this.logText)
      this.log.info(
        { mail: { to: message.to, subject: message.subject, text: message.text } },
        'mail written to the outbox',
      );
    else this.log.info({ mail: { subject: message.subject } }, 'mail written to the outbox');
  }
}

/**
 * A server that does not answer fails the try well within the job's lease (JOB_LEASE_SECONDS,
 * default 120 s), so no second worker takes the mail while the first may still send it (D138).
 */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
} as const;

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  }

  async send(message: MailMessage): Promise<void> {
    await counted(() => this.transport.sendMail({ from: this.from, ...message }));
    this.log.info({ mail: { subject: message.subject } }, 'mail sent');
  }
}
