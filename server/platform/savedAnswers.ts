/**
 * A key that holds saved answers does not disappear silently (D194): a new version that renames or
 * drops a key some application holds an answer under is refused with how many applications hold it,
 * unless the operator says `--drop-keys`. The answers stay in their rows either way (D145); what
 * the refusal prevents is a form that no longer shows them without anyone having decided so.
 */
import { sql } from 'drizzle-orm';
import { keyPaths, loadDefinition, type Definition } from '../../runtime';
import type { Transaction } from '../tenants';
import { applications } from '../db/schema';
import type { FileProblem } from './plainWords';

/** A key the new version no longer stores, and the applications holding an answer under it. */
export interface HeldKey {
  readonly key: string;
  readonly applications: number;
  /** Of those, the ones not yet submitted: an applicant mid-form would no longer see the answer. */
  readonly unsubmitted: number;
  /** Where the previous version asked it. */
  readonly path: string;
  /** The key the new version stores at that place instead, when one does (a rename). */
  readonly renamedTo?: string;
}

type Rows<T> = { rows: T[] };

/** The keys `previous` stores and `next` does not, that some application holds an answer under. */
export async function heldKeysDropped(
  tx: Transaction,
  tenantId: string,
  previousData: unknown,
  next: Definition,
): Promise<HeldKey[]> {
  let previous: Definition;
  try {
    previous = loadDefinition(previousData);
  } catch {
    return []; // a version stored before today's checks: nothing to compare with
  }
  const before = keyPaths(previous);
  const after = keyPaths(next);
  const dropped = [...before.keys()].filter((key) => !after.has(key));
  if (dropped.length === 0) return [];
  const keys = sql.join(
    dropped.map((key) => sql`${key}`),
    sql`, `,
  );
  const counted = (await tx.execute(sql`
    select k as key, count(*)::int as applications,
      (count(*) filter (where ${applications.submittedAt} is null))::int as unsubmitted
    from ${applications}, unnest(array[${keys}]::text[]) as k
    where ${applications.tenantId} = ${tenantId}
      and coalesce(${applications.answers} ->> k, '') not in ('', '--', 'false')
    group by k`)) as unknown as Rows<{ key: string; applications: number; unsubmitted: number }>;
  // The question's own key comes first of those at its place (then its label's, its year's).
  const atPath = new Map<string, string>();
  for (const [key, path] of after) if (!atPath.has(path)) atPath.set(path, key);
  return counted.rows
    .map((row) => {
      const path = before.get(row.key) ?? '(root)';
      const renamedTo = atPath.get(path);
      return {
        key: row.key,
        applications: Number(row.applications),
        unsubmitted: Number(row.unsubmitted),
        path,
        ...(renamedTo ? { renamedTo } : {}),
      };
    })
    .sort((a, b) => dropped.indexOf(a.key) - dropped.indexOf(b.key));
}

const applicationsWord = (count: number) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? 'application holds' : 'applications hold'}`;

/** What a held key says: how many hold it, and what this version does with it. */
export function heldKeyWords(held: HeldKey): string {
  const change = held.renamedTo
    ? `this version stores "${held.renamedTo}" there instead (a rename)`
    : 'this version no longer asks it';
  return `${applicationsWord(held.applications)} an answer under "${held.key}" (${held.unsubmitted.toLocaleString('en-US')} not yet submitted), and ${change}`;
}

/** The refusal of a version that drops held keys: one problem each, at the key's place in `version`. */
export function heldKeyProblems(held: readonly HeldKey[], version: number): FileProblem[] {
  return held.map((key) => ({
    path: key.path,
    message: `in version ${version}, ${heldKeyWords(key)}: the form would no longer show those answers. Keep the key, or publish with --drop-keys to drop it knowingly`,
  }));
}
