/** Imports an institution's CSV list into a tenant's lookup tables: every row checked, all or nothing. */
import type { LookupCategoryName } from '../../contract';
import type { Definition } from '../../runtime';
import type { Database } from '../db/client';
import { readLookupCsv, type RowProblem } from './csv';
import { optionSources, replaceList } from './store';

export type ImportResult =
  | { readonly ok: true; readonly count: number; readonly version: number }
  | { readonly ok: false; readonly problems: readonly RowProblem[] };

export async function importList(
  db: Database,
  tenant: { readonly id: string; readonly definition: Definition },
  category: LookupCategoryName,
  csv: string,
  now: Date,
): Promise<ImportResult> {
  const result = readLookupCsv(category, csv, optionSources(tenant.definition));
  if (!result.ok) return result;
  const version = await replaceList(db, tenant.id, category, result.entries, {
    sample: false,
    now,
  });
  return { ok: true, count: result.entries.length, version };
}
