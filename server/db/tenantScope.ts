/**
 * The tenant scope of the code running now (docs/decisions/ D56). PostgreSQL's row-level security
 * admits only the rows of the tenant named by the setting `app.tenant_id`; the pool of
 * `server/db/client.ts` gives every connection it hands out the tenant of the scope that asked for
 * it, and no tenant (an empty setting, which matches no row) outside any scope.
 *
 * Scopes are entered at the entry points only, never by a service deciding on its own: the request
 * hooks of `server/app.ts` (the tenant of the Host header), the job queue around each job (the
 * payload's `tenantId`), the start-up tasks and the command-line tools (the tenant they were given).
 * One exception: the data key store (server/crypto/dataKeys.ts) reads a key in the scope of the
 * tenant it was asked for, since a multipart stream may run after the request's scope is lost.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

/**
 * Runs `fn` (and everything it starts) in the tenant's scope and waits for its result inside the
 * scope: drizzle's queries are lazy (they start when awaited), so one returned unawaited still runs in
 * the scope.
 */
export async function runInTenant<T>(tenantId: string, fn: () => T | PromiseLike<T>): Promise<T> {
  if (tenantId === '') throw new Error('A tenant scope needs a tenant id.');
  return scope.run(tenantId, async () => await fn());
}

/** Calls `next` at once in the tenant's scope; what it starts inherits it (Fastify's hook chain). */
export function enterTenant(tenantId: string, next: () => void): void {
  if (tenantId === '') throw new Error('A tenant scope needs a tenant id.');
  scope.run(tenantId, next);
}

/** Runs `fn` outside any tenant scope: its queries see no tenant's rows (jobs without a tenant). */
export async function runWithoutTenant<T>(fn: () => T | PromiseLike<T>): Promise<T> {
  return scope.exit(async () => await fn());
}

/** The tenant of the current scope, or undefined outside any. */
export function currentTenant(): string | undefined {
  return scope.getStore();
}
