/**
 * The request-CPU bench's client (./requestCpu.ts), a child process so that the bench process is the
 * web server alone: for one request kind it prepares the applicants (logins, complete applications),
 * says it is ready, and on `go` sends the kind's requests one at a time, reporting each one's time.
 */
import http from 'node:http';
import { validApplication } from '../definitions/fixtures';
import { login, request } from './deadlineLoad';

export const CPU_KINDS = [
  'refused (no session)',
  'login',
  'autosave',
  'autosave with If-Match',
  'autosave of a listed name',
  'read',
  'submit',
  'PDF status',
] as const;
export type CpuKind = (typeof CPU_KINDS)[number];

export interface CpuOrder {
  readonly type: 'prepare';
  readonly base: string;
  readonly kind: CpuKind;
  readonly count: number;
  readonly password: string;
  /** One account for most kinds; one per request for submits. */
  readonly emails: readonly string[];
}

export type CpuMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly statuses: Record<number, number>; readonly ms: number[] };

/** Set in the child's environment by the bench. */
export const CPU_CLIENT_ENV = 'REQUEST_CPU_CLIENT';

type Send = () => Promise<{ status: number }>;

/** PUT /api/answer with If-Match (the load module's request sends no extra header). */
function requestWith(base: string, body: unknown, cookie: string, version: number) {
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; text: string }>((resolve) => {
    const req = http.request(
      new URL('/api/answer', base),
      {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'if-match': `"${version}"`,
          cookie,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', () => resolve({ status: 0, text: '' }));
    req.end(payload);
  });
}

/** The requests of the order, prepared: each call of the list sends one. */
async function prepare(order: CpuOrder): Promise<Send[]> {
  const { base, password, emails, count } = order;
  const first = emails[0] as string;
  const times = (send: (i: number) => Send) => Array.from({ length: count }, (_, i) => send(i));
  switch (order.kind) {
    case 'refused (no session)':
      return times(() => () => request(base, 'GET', '/api/profile', undefined));
    case 'login':
      return times(() => () => login(base, first, password));
  }
  const { cookie } = await login(base, first, password);
  await request(base, 'PUT', '/api/answer', { first_name: 'Ada', last_name: 'Lovelace' }, cookie);
  switch (order.kind) {
    case 'autosave':
      return times((i) => () => request(base, 'PUT', '/api/answer', { city: `c${i}` }, cookie));
    case 'autosave with If-Match': {
      // As the app saves: with the version it last saw (REQ-R-2), taken from each answer.
      const read = await request(base, 'GET', '/api/profile', undefined, cookie);
      let version = (JSON.parse(read.text) as { version: number }).version;
      return times((i) => async () => {
        const saved = await requestWith(base, { city: `c${i}` }, cookie, version);
        if (saved.status === 200) version = (JSON.parse(saved.text) as { version: number }).version;
        return saved;
      });
    }
    case 'autosave of a listed name':
      return times(
        (i) => () => request(base, 'PUT', '/api/answer', { last_name: `Lovelace${i}` }, cookie),
      );
    case 'read':
      return times(() => () => request(base, 'GET', '/api/profile', undefined, cookie));
    case 'PDF status':
      await request(base, 'PUT', '/api/answer', validApplication, cookie);
      await request(base, 'POST', '/api/submit', {}, cookie);
      return times(() => () => request(base, 'GET', '/api/pdf', undefined, cookie));
    case 'submit': {
      const cookies = [];
      for (const email of emails) {
        const applicant = await login(base, email, password);
        await request(base, 'PUT', '/api/answer', validApplication, applicant.cookie);
        cookies.push(applicant.cookie);
      }
      return cookies.map((c) => () => request(base, 'POST', '/api/submit', {}, c));
    }
  }
}

if (process.env[CPU_CLIENT_ENV] === '1' && process.send) {
  let prepared: Send[] = [];
  process.on('message', (message: CpuOrder | { type: 'go' }) => {
    if (message.type === 'prepare')
      void prepare(message).then((sends) => {
        prepared = sends;
        process.send?.({ type: 'ready' } satisfies CpuMessage);
      });
    else
      void (async () => {
        const ms: number[] = [];
        const statuses: Record<number, number> = {};
        for (const send of prepared) {
          const start = performance.now();
          const { status } = await send();
          ms.push(performance.now() - start);
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
        process.send?.({ type: 'done', statuses, ms } satisfies CpuMessage);
      })();
  });
  process.on('disconnect', () => process.exit(0));
}
