/**
 * Reads an institution's CSV list (header row first) into entries, checking every row. Bad rows are
 * reported by their line number in the file; nothing is returned for import unless every row is good.
 */
import { parse } from 'csv-parse/sync';
import type { LookupCategoryName } from '../../contract';
import { CSV_COLUMNS, entryFromRow, RowError, type OptionSources } from './rows';
import type { LookupEntry } from './search';

export interface RowProblem {
  readonly line: number;
  readonly message: string;
}

export type CsvResult =
  | { readonly ok: true; readonly entries: LookupEntry[] }
  | { readonly ok: false; readonly problems: RowProblem[] };

const REQUIRED: Record<LookupCategoryName, readonly string[]> = {
  hs_ceeb: ['ceeb', 'name'],
  college_ceeb: ['ceeb', 'name'],
  address: ['address_line_1', 'zip'],
};

export function readLookupCsv(
  category: LookupCategoryName,
  csv: string,
  lists: OptionSources,
): CsvResult {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(csv, {
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      bom: true,
      skip_empty_lines: true,
      info: true,
    });
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return { ok: false, problems: [{ line, message: (error as Error).message }] };
  }
  const header = csv.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const columns = header.split(',').map((name) => name.trim().replace(/^"|"$/g, '').toLowerCase());
  const known = CSV_COLUMNS[category];
  const problems: RowProblem[] = [];
  const unknown = columns.filter((name) => !known.includes(name));
  const missing = REQUIRED[category].filter((name) => !columns.includes(name));
  if (unknown.length > 0)
    problems.push({
      line: 1,
      message: `unknown column(s) ${unknown.join(', ')}; expected ${known.join(', ')}`,
    });
  if (missing.length > 0)
    problems.push({ line: 1, message: `missing column(s) ${missing.join(', ')}` });
  if (problems.length > 0) return { ok: false, problems };
  if (records.length === 0)
    return { ok: false, problems: [{ line: 1, message: 'the file has no rows' }] };

  const entries: LookupEntry[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of records) {
    try {
      const entry = entryFromRow(category, record, lists);
      const first = seen.get(entry.id);
      if (first !== undefined)
        throw new RowError(`duplicate id ${entry.id} (first on line ${first})`);
      seen.set(entry.id, info.lines);
      entries.push(entry);
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      problems.push({ line: info.lines, message: error.message });
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, entries };
}
