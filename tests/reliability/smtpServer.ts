/**
 * A real SMTP server for the mail tests (smtp-server) that can be stopped and started again on the
 * same port, as a college's mail server goes down and comes back. It keeps every message it took,
 * decoded enough to read: its Message-ID, addressee, subject and text.
 */
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly messageId: string;
  readonly to: string;
  readonly subject: string;
  /** The raw message with quoted-printable undone (codes and links read as sent). */
  readonly text: string;
}

/** Undoes header folding and quoted-printable soft breaks and escapes. */
function readable(raw: string): string {
  return raw
    .replace(/\r\n[ \t]+/g, ' ')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const header = (text: string, name: string) =>
  new RegExp(`^${name}: *(.*)$`, 'mi').exec(text)?.[1]?.trim() ?? '';

export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  private server: SMTPServer | undefined;

  constructor(readonly port: number) {}

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          const text = readable(data);
          this.received.push({
            messageId: header(text, 'Message-ID'),
            to: header(text, 'To'),
            subject: header(text, 'Subject'),
            text,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  /** Stops listening and drops the connections still open: the mail server is down. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The messages to `to` whose subject contains `subject`. */
  to(to: string, subject: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to === to && mail.subject.includes(subject));
  }
}
