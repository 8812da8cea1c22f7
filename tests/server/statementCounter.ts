import pg from 'pg';
import type { DatabaseHandle } from '../../server/db/client';

type Counted = (...args: unknown[]) => unknown;

/** Counts every statement sent to the database from now until `stop()`. */
export function countStatements(database: DatabaseHandle): {
  count: () => number;
  stop: () => void;
} {
  let count = 0;
  const counting = (original: Counted): Counted =>
    function (this: unknown, ...args: unknown[]) {
      count += 1;
      return original.apply(this, args);
    };
  if (database.kind === 'postgres') {
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = counting(original as Counted) as typeof original;
    return { count: () => count, stop: () => (pg.Client.prototype.query = original) };
  }
  const pglite = database.pglite as unknown as Record<'query' | 'exec' | 'transaction', Counted>;
  const originals = { query: pglite.query, exec: pglite.exec, transaction: pglite.transaction };
  pglite.query = counting(originals.query);
  pglite.exec = counting(originals.exec);
  // BEGIN and COMMIT, and the statements sent on the transaction.
  pglite.transaction = function (this: unknown, fn: unknown) {
    count += 2;
    return originals.transaction.call(this, (tx: Record<'query' | 'exec', Counted>) => {
      tx.query = counting(tx.query.bind(tx));
      tx.exec = counting(tx.exec.bind(tx));
      return (fn as (tx: unknown) => unknown)(tx);
    });
  };
  return {
    count: () => count,
    stop: () => Object.assign(pglite, originals),
  };
}
