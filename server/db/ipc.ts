/**
 * The worker process's database on the embedded PGlite (D98). PGlite admits one process per data
 * directory, so the web process that owns it runs the worker as its child and answers the worker's
 * statements over the IPC channel; the worker sees an ordinary drizzle database (the pg-proxy
 * driver). The job kinds run single statements only: pg-proxy has no transactions.
 */
import type { ChildProcess } from 'node:child_process';
import { types, type PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pg-proxy';
import type { Database, DatabaseHandle } from './client';
import * as schema from './schema';

interface QueryMessage {
  readonly type: 'db-query';
  readonly id: number;
  readonly sql: string;
  readonly params: unknown[];
  readonly method: 'all' | 'execute';
}

interface ResultMessage {
  readonly type: 'db-result';
  readonly id: number;
  readonly rows?: unknown[];
  readonly error?: { readonly message: string; readonly code?: string };
}

/** Date and time values stay text, as drizzle's own PGlite driver reads them (drizzle maps them). */
const asText = (value: string) => value;
const parsers = {
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.INTERVAL]: asText,
  [types.DATE]: asText,
  1231: asText,
  1115: asText,
  1185: asText,
  1187: asText,
  1182: asText,
};

const isQuery = (message: unknown): message is QueryMessage =>
  typeof message === 'object' &&
  message !== null &&
  (message as { type?: unknown }).type === 'db-query';

/** In the web process: answers the child's statements on the PGlite it owns. */
export function serveDatabaseOverIpc(child: ChildProcess, pglite: PGlite): void {
  child.on('message', (message: unknown) => {
    if (!isQuery(message)) return;
    const rowMode = message.method === 'all' ? 'array' : 'object';
    pglite.query(message.sql, message.params, { rowMode, parsers }).then(
      (result) => reply(child, { type: 'db-result', id: message.id, rows: result.rows }),
      (error: unknown) => {
        const { message: text, code } = error as { message?: string; code?: string };
        reply(child, {
          type: 'db-result',
          id: message.id,
          error: { message: text ?? 'database error', ...(code ? { code } : {}) },
        });
      },
    );
  });
}

function reply(child: ChildProcess, message: ResultMessage): void {
  if (child.connected) child.send(message);
}

/** In the worker process: a database whose statements run in the parent. */
export function openIpcDatabase(): DatabaseHandle {
  const send = process.send?.bind(process);
  if (!send) throw new Error('The worker has no IPC channel to its web process.');
  const waiting = new Map<
    number,
    { resolve: (rows: unknown[]) => void; reject: (e: Error) => void }
  >();
  let nextId = 1;
  const onMessage = (message: unknown) => {
    const result = message as Partial<ResultMessage>;
    if (result.type !== 'db-result' || result.id === undefined) return;
    const pending = waiting.get(result.id);
    if (!pending) return;
    waiting.delete(result.id);
    if (result.error)
      pending.reject(Object.assign(new Error(result.error.message), { code: result.error.code }));
    else pending.resolve(result.rows ?? []);
  };
  process.on('message', onMessage);
  const db = drizzle(
    (sql, params, method) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve: (rows) => resolve({ rows }), reject });
        send({ type: 'db-query', id, sql, params, method } satisfies QueryMessage);
      }),
    { schema },
  ) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    close: async () => {
      process.off('message', onMessage);
      for (const pending of waiting.values())
        pending.reject(new Error('the database channel was closed'));
      waiting.clear();
    },
  };
}
