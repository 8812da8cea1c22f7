/**
 * The deadline bench's load generator (./deadline.ts), run as a child process of the bench so that
 * the web process it measures serves requests only: logs in the step's applicants, gives the
 * submitters a complete application, then sends open-loop arrivals at the step's rates and reports
 * every request's kind, status and time, and which saves were acknowledged.
 */
import http from 'node:http';
import { validApplication } from '../definitions/fixtures';

export type RequestKind = 'login' | 'autosave' | 'read' | 'submit' | 'pdf';

export interface Sample {
  readonly kind: RequestKind;
  readonly status: number;
  readonly ms: number;
}

export interface StepOrder {
  readonly type: 'step';
  readonly base: string;
  readonly seconds: number;
  readonly prefix: string;
  readonly password: string;
  readonly rates: Readonly<Record<RequestKind, number>>;
  readonly editorEmails: readonly string[];
  readonly submitterEmails: readonly string[];
}

export interface StepReport {
  readonly type: 'result';
  readonly samples: Sample[];
  readonly acknowledged: number;
  /** Arrivals that found their editor's save in flight and replaced the one waiting (as the app's autosave does). */
  readonly coalesced: number;
  /** Editor index → the value of its last acknowledged save. */
  readonly lastAcked: [number, string][];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export function request(
  base: string,
  method: string,
  pathname: string,
  body: unknown,
  cookie?: string,
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; setCookie: string[]; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      new URL(pathname, base),
      {
        method,
        agent,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}),
          ...(cookie ? { cookie } : {}),
          ...extraHeaders,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            setCookie: ([] as string[]).concat(res.headers['set-cookie'] ?? []),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', () => resolve({ status: 0, setCookie: [], text: '' }));
      },
    );
    req.on('error', () => resolve({ status: 0, setCookie: [], text: '' }));
    req.end(payload);
  });
}

export async function login(
  base: string,
  email: string,
  password: string,
): Promise<{ status: number; cookie: string }> {
  const res = await request(base, 'POST', '/public/login', { username: email, password });
  return { status: res.status, cookie: res.setCookie.map((c) => c.split(';')[0]).join('; ') };
}

export async function runStep(order: StepOrder, onArrivals: () => void): Promise<StepReport> {
  const { base, rates, editorEmails, submitterEmails, prefix, password } = order;
  const editors = editorEmails.length;
  const submitters = submitterEmails.length;
  const editorCookies = await Promise.all(editorEmails.map((e) => login(base, e, password)));
  const submitterCookies = await Promise.all(submitterEmails.map((e) => login(base, e, password)));
  // Submitters have a complete application before the clock starts.
  await Promise.all(
    submitterCookies.map((s) => request(base, 'PUT', '/api/answer', validApplication, s.cookie)),
  );

  // Each editor saves as the app's autosave does: with the version it last saw (If-Match), one save
  // at a time; a change made while one is in flight waits, and a newer change replaces it.
  const editorsNow = await Promise.all(
    editorCookies.map(async ({ cookie }) => {
      const profile = await request(base, 'GET', '/api/profile', undefined, cookie);
      const version = (JSON.parse(profile.text) as { version?: number }).version ?? 0;
      return { cookie, version, sending: false, waiting: null as string | null };
    }),
  );

  const samples: Sample[] = [];
  const lastAcked = new Map<number, string>();
  let acknowledged = 0;
  let coalesced = 0;
  let counter = 0;
  let submitIndex = 0;
  const pending: Promise<void>[] = [];
  const timed = async <T extends { status: number }>(kind: RequestKind, run: () => Promise<T>) => {
    const start = performance.now();
    const response = await run();
    samples.push({ kind, status: response.status, ms: performance.now() - start });
    return response;
  };
  const save = (editor: number, value: string) => {
    const state = editorsNow[editor] as (typeof editorsNow)[number];
    state.sending = true;
    pending.push(
      timed('autosave', () =>
        request(base, 'PUT', '/api/answer', { city: value }, state.cookie, {
          'if-match': `"${state.version}"`,
        }),
      ).then(({ status, text }) => {
        const body = (text ? JSON.parse(text) : {}) as { version?: number };
        if (typeof body.version === 'number') state.version = body.version;
        if (status === 200) {
          acknowledged += 1;
          lastAcked.set(editor, value);
        }
        state.sending = false;
        if (state.waiting !== null) {
          const next = state.waiting;
          state.waiting = null;
          save(editor, next);
        }
      }),
    );
  };
  const arrivals = Object.entries(rates) as [RequestKind, number][];
  onArrivals();
  const end = performance.now() + order.seconds * 1000;
  const next = new Map(arrivals.map(([k, r]) => [k, performance.now() + 1000 / r / 2]));
  while (performance.now() < end) {
    const now = performance.now();
    for (const [kind, rate] of arrivals) {
      while ((next.get(kind) as number) <= now) {
        next.set(kind, (next.get(kind) as number) + 1000 / rate);
        if (kind === 'autosave') {
          const editor = counter % editors;
          const value = `${prefix} write ${++counter}`;
          const state = editorsNow[editor] as (typeof editorsNow)[number];
          if (!state.sending) save(editor, value);
          else {
            if (state.waiting !== null) coalesced += 1;
            state.waiting = value;
          }
        } else if (kind === 'read') {
          const cookie = (editorCookies[counter % editors] as { cookie: string }).cookie;
          pending.push(
            timed('read', () => request(base, 'GET', '/api/profile', undefined, cookie)).then(
              () => undefined,
            ),
          );
        } else if (kind === 'pdf') {
          const submitter = submitterCookies[Math.max(0, submitIndex - 1) % submitters] as {
            cookie: string;
          };
          pending.push(
            timed('pdf', () => request(base, 'GET', '/api/pdf', undefined, submitter.cookie)).then(
              () => undefined,
            ),
          );
        } else if (kind === 'submit') {
          const submitter = submitterCookies[submitIndex++ % submitters] as { cookie: string };
          pending.push(
            timed('submit', () => request(base, 'POST', '/api/submit', {}, submitter.cookie)).then(
              () => undefined,
            ),
          );
        } else {
          const email = editorEmails[counter % editors] as string;
          pending.push(timed('login', () => login(base, email, password)).then(() => undefined));
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  // Saves that waited for their editor's save are added while these settle.
  while (pending.length > 0) await Promise.all(pending.splice(0));
  return { type: 'result', samples, acknowledged, coalesced, lastAcked: [...lastAcked] };
}

/** Set in the child's environment by the bench. */
export const LOAD_CHILD_ENV = 'DEADLINE_LOAD_CHILD';

if (process.env[LOAD_CHILD_ENV] === '1' && process.send) {
  process.on('message', (message: StepOrder) => {
    if (message.type !== 'step') return;
    void runStep(message, () => process.send?.({ type: 'arrivals' })).then((report) =>
      process.send?.(report),
    );
  });
  process.on('disconnect', () => {
    agent.destroy();
    process.exit(0);
  });
}
