/**
 * The worker process's database on the embedded PGlite (D98). PGlite admits one process per data
 * directory, so the web process that owns it runs the worker as its child and answers the worker's
 * statements over the IPC channel; the worker sees an ordinary drizzle database (the pg-proxy
 * driver), whose transactions are held open in the parent (pg-proxy has none of its own).
 */
import type { ChildProcess } from 'node:child_process';
import { types, type PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pg-proxy';
import type { Database, DatabaseHandle } from './client';
import * as schema from './schema';

interface QueryMessage {
  readonly type: 'db-query';
  readonly id: number;
  readonly sql: string;
  readonly params: unknown[];
  readonly method: 'all' | 'execute';
  /** The open transaction the statement belongs to (none: a statement of its own). */
  readonly tx?: number;
}

/** Opens a transaction (`begin`) or ends it: committed, or rolled back. */
interface TransactionMessage {
  readonly type: 'db-tx';
  readonly id: number;
  readonly tx: number;
  readonly step: 'begin' | 'commit' | 'rollback';
}

type RequestMessage = QueryMessage | TransactionMessage;

interface ResultMessage {
  readonly type: 'db-result';
  readonly id: number;
  readonly rows?: unknown[];
  readonly affectedRows?: number;
  readonly error?: { readonly message: string; readonly code?: string };
}

/**
 * How long the worker may hold a transaction: PGlite runs one at a time, so every request of the
 * web process waits behind it. Past this it is rolled back and its statements fail.
 */
export const IPC_TRANSACTION_LIMIT_MS = 30_000;

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

const isRequest = (message: unknown): message is RequestMessage => {
  const type = (message as { type?: unknown } | null)?.type;
  return type === 'db-query' || type === 'db-tx';
};

const errorOf = (error: unknown): NonNullable<ResultMessage['error']> => {
  const { message, code } = (error ?? {}) as { message?: string; code?: string };
  return { message: message ?? 'database error', ...(code ? { code } : {}) };
};

/** A worker's transaction held open in PGlite until the worker ends it. */
interface OpenTransaction {
  readonly tx: Transaction;
  /** Ends the callback PGlite runs the transaction in: resolved commits, rejected rolls back. */
  readonly finish: (commit: boolean) => void;
  /** Settles once PGlite has committed or rolled back (rejected when the commit failed). */
  readonly ended: Promise<void>;
  readonly timer: NodeJS.Timeout;
}

class RolledBack extends Error {}

/**
 * In the web process: answers the child's statements on the PGlite it owns. A transaction the child
 * opens is one of PGlite's own (`pglite.transaction`), so the web process's statements wait for it
 * and never run inside it; it is rolled back when the child goes away or holds it too long.
 */
export function serveDatabaseOverIpc(
  child: ChildProcess,
  pglite: PGlite,
  transactionLimitMs = IPC_TRANSACTION_LIMIT_MS,
): void {
  const open = new Map<number, OpenTransaction>();
  const send = (message: ResultMessage) => {
    if (child.connected) child.send(message);
  };

  const begin = (id: number, txId: number) => {
    let started = false;
    const ended = pglite
      .transaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            const finish = (commit: boolean) => (commit ? resolve() : reject(new RolledBack()));
            const timer = setTimeout(() => {
              end(txId, false).catch(() => undefined);
            }, transactionLimitMs);
            open.set(txId, { tx, finish, ended, timer });
            started = true;
            send({ type: 'db-result', id });
          }),
      )
      .then(
        () => undefined,
        (error: unknown) => {
          // Not begun: the worker is told. A failed commit: the worker's commit is told (`end`).
          if (!started) return send({ type: 'db-result', id, error: errorOf(error) });
          if (!(error instanceof RolledBack)) throw error;
        },
      );
  };

  const end = (txId: number, commit: boolean): Promise<void> => {
    const held = open.get(txId);
    if (!held) return Promise.reject(new Error('the transaction is no longer open'));
    open.delete(txId);
    clearTimeout(held.timer);
    held.finish(commit);
    return held.ended;
  };

  const run = async (message: QueryMessage) => {
    const target = message.tx === undefined ? pglite : open.get(message.tx)?.tx;
    if (!target) throw new Error('the transaction is no longer open');
    const rowMode = message.method === 'all' ? 'array' : 'object';
    return target.query(message.sql, message.params, { rowMode, parsers });
  };

  child.on('message', (message: unknown) => {
    if (!isRequest(message)) return;
    const { id } = message;
    if (message.type === 'db-tx' && message.step === 'begin') return begin(id, message.tx);
    const answer =
      message.type === 'db-tx'
        ? end(message.tx, message.step === 'commit').then(() => ({}))
        : run(message).then((result) => ({
            rows: result.rows,
            ...(result.affectedRows === undefined ? {} : { affectedRows: result.affectedRows }),
          }));
    answer.then(
      (result) => send({ type: 'db-result', id, ...result }),
      (error: unknown) => send({ type: 'db-result', id, error: errorOf(error) }),
    );
  });
  // A worker gone mid-transaction leaves nothing held: the web process's statements go on.
  child.once('exit', () => {
    for (const txId of [...open.keys()]) end(txId, false).catch(() => undefined);
  });
}

type Waiting = Map<
  number,
  { resolve: (result: ResultMessage) => void; reject: (e: Error) => void }
>;

/**
 * In the worker process: a database whose statements run in the parent. `transaction` runs its
 * callback on a database bound to one transaction the parent holds open (no nested transactions,
 * no `tx.rollback()`: a callback that throws rolls back).
 */
export function openIpcDatabase(): DatabaseHandle {
  const send = process.send?.bind(process);
  if (!send) throw new Error('The worker has no IPC channel to its web process.');
  const waiting: Waiting = new Map();
  let nextId = 1;
  let nextTx = 1;
  const onMessage = (message: unknown) => {
    const result = message as Partial<ResultMessage>;
    if (result.type !== 'db-result' || result.id === undefined) return;
    const pending = waiting.get(result.id);
    if (!pending) return;
    waiting.delete(result.id);
    if (result.error)
      pending.reject(Object.assign(new Error(result.error.message), { code: result.error.code }));
    else pending.resolve(result as ResultMessage);
  };
  process.on('message', onMessage);
  const request = (message: Omit<QueryMessage, 'id'> | Omit<TransactionMessage, 'id'>) =>
    new Promise<ResultMessage>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      send({ ...message, id } as RequestMessage);
    });
  // A raw statement's result has `rows` as the other drivers' have (pg-proxy returns what it gets).
  const databaseIn = (tx?: number) =>
    drizzle(
      async (sql, params, method) => {
        const result = await request({
          type: 'db-query',
          sql,
          params,
          method,
          ...(tx === undefined ? {} : { tx }),
        });
        const rows = result.rows ?? [];
        return method === 'execute'
          ? { rows: { rows, affectedRows: result.affectedRows } as unknown as unknown[] }
          : { rows };
      },
      { schema },
    ) as unknown as Database;

  const db = databaseIn();
  const transaction = async <T>(callback: (tx: Database) => Promise<T>): Promise<T> => {
    const tx = nextTx++;
    await request({ type: 'db-tx', tx, step: 'begin' });
    let result: T;
    try {
      result = await callback(databaseIn(tx));
    } catch (error) {
      await request({ type: 'db-tx', tx, step: 'rollback' }).catch(() => undefined);
      throw error;
    }
    await request({ type: 'db-tx', tx, step: 'commit' });
    return result;
  };
  Object.assign(db, { transaction });
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
