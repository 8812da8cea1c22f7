/**
 * The CSV export: the filtered applications, one row each, the list's columns and then a column per
 * answer, headed by the question's label (with its key only where two labels are alike). A coded
 * answer shows its label; `codes` keeps the stored codes beside their labels (`<key>_desc`, D74)
 * and every column, for systems that import the export. A repeat's columns nobody in the export
 * answered are left out, and so are those an admin left out of the office's choice (D168; `codes`
 * keeps them all, as systems that import the export expect). Masked answers stay masked as in every copy. UTF-8 with a byte-order mark,
 * so a spreadsheet reads accents right. Cells a spreadsheet would read as a formula (starting with
 * =, +, -, @, tab or carriage return) are neutralised by csv-stringify's `escape_formulas`. Rows are
 * read in batches, each seeking past the last (D107), so an export of every application streams in
 * bounded memory and time. Each application is read under the definition version it was submitted
 * with; the columns are the latest version's, then those only earlier versions had (D145).
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { sql, type SQL } from 'drizzle-orm';
import { answersForCopy, dataModelEntries, type Definition } from '../../runtime';
import type { ApplicationQuery } from '../../contract/staff';
import type { Database } from '../db/client';
import type { AnswerVault } from '../crypto/answerVault';
import type { Tenant } from '../tenants';
import {
  filterOf,
  LISTING_COLUMNS,
  orderOf,
  positionOfRow,
  seek,
  sortKeyOf,
} from './applicationList';
import { searchOf } from './listSearch';
import { collegeTime } from '../../contract/collegeTime';

const BATCH = 500;

/**
 * The first columns. Each time twice (D197): as ISO 8601 in UTC, for systems that import the file
 * and for sorting, then beside it as people read it everywhere else, in the institution's zone,
 * named in the header and in the cell ("November 2, 2026, 10:30 PM EST": an hour that repeats when
 * clocks go back stays told apart).
 */
const fixedHeaders = (timeZone: string) => [
  'Applicant ID',
  'Name',
  'E-mail',
  'Status',
  'Submitted (ISO 8601, UTC)',
  `Submitted (${timeZone})`,
  'Last change (ISO 8601, UTC)',
  `Last change (${timeZone})`,
  'Documents',
];

export interface AnswerColumn {
  /** The answer key the column shows. */
  readonly key: string;
  /** Where a coded answer's label is, when the column shows labels. */
  readonly labelKey: string | null;
  readonly label: string;
  /** A repeat's column (left out when nobody answered it). */
  readonly repeated: boolean;
  readonly header: string;
}

export interface ExportOptions {
  /** Stored codes beside their labels, and every column (an admin's choice is for people). */
  readonly codes?: boolean;
  /** The answer columns an admin chose for the office, by key (D168); null: every column. */
  readonly chosen?: readonly string[] | null;
}

/** Every answer key in definition order with its label: codes and `_desc` keys apart, or one column. */
export function answerColumns(definition: Definition, options: ExportOptions = {}): AnswerColumn[] {
  const columns: Omit<AnswerColumn, 'header'>[] = [];
  for (const { key, role, question, repeated, labelKey } of dataModelEntries(definition)) {
    const label = question?.label.trim() || key;
    if (role === 'label') {
      if (options.codes) columns.push({ key, labelKey: null, label: `${label} (label)`, repeated });
      continue;
    }
    const shown = role === 'year' ? `${label} (year)` : label;
    columns.push({ key, labelKey: options.codes ? null : labelKey, label: shown, repeated });
  }
  return withHeaders(columns, options);
}

/** The label as the header; the key beside it where two columns' labels are alike (or for codes). */
function withHeaders(
  columns: readonly Omit<AnswerColumn, 'header'>[],
  options: ExportOptions,
): AnswerColumn[] {
  const seen = new Map<string, number>();
  for (const column of columns) seen.set(column.label, (seen.get(column.label) ?? 0) + 1);
  return columns.map((column) => ({
    ...column,
    header:
      options.codes || (seen.get(column.label) ?? 0) > 1
        ? `${column.label} [${column.key}]`
        : column.label,
  }));
}

/** The columns of every published version: the latest's in its order, then older-only keys. */
export function versionedAnswerColumns(
  tenant: Pick<Tenant, 'versions' | 'definitionAt'>,
  options: ExportOptions = {},
): AnswerColumn[] {
  const columns = new Map<string, AnswerColumn>();
  for (const version of [...tenant.versions].reverse())
    for (const column of answerColumns(tenant.definitionAt(version), options))
      if (!columns.has(column.key)) columns.set(column.key, column);
  return withHeaders([...columns.values()], options);
}

const csv = (rows: unknown[][]) => stringify(rows, { escape_formulas: true, bom: false });

interface ExportRow extends Record<string, unknown> {
  id: string;
  name: string;
  email: string;
  status: string;
  submitted_at: string | Date | null;
  updated_at: string | Date;
  answers: Record<string, unknown>;
  definition_version: number | null;
  documents: number;
  files: Record<string, string> | null;
  sort_key: string | number;
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The answer keys anyone in the filtered set answered (to leave out the repeats nobody used). */
async function answeredKeys(db: Database, where: SQL): Promise<Set<string>> {
  const result = (await db.execute(sql`select distinct k.key from staff_listing l
      join applications a on a.tenant_id = l.tenant_id and a.user_id = l.user_id
      cross join lateral jsonb_each(a.answers) as k(key, value)
      where ${where} and k.value <> 'null'::jsonb and k.value <> '""'::jsonb`)) as unknown as {
    rows: { key: string }[];
  };
  return new Set(result.rows.map((row) => row.key));
}

/** The export as a stream of CSV text: the header row, then the rows in the list's order. */
export function exportApplications(
  db: Database,
  vault: AnswerVault,
  tenantId: string,
  tenant: Pick<Tenant, 'versions' | 'definitionAt'>,
  query: ApplicationQuery,
  options: ExportOptions & { readonly timeZone: string },
): Readable {
  const { timeZone } = options;
  const times = (value: string | Date | null) =>
    value === null
      ? ['', '']
      : [new Date(value).toISOString(), collegeTime(new Date(value), timeZone)];
  const order = orderOf(query);
  async function* lines() {
    // The rows the search finds, in the list's sort (a file has no use for the search's ranks).
    const where = filterOf(tenantId, query, await searchOf(db, query.q), timeZone);
    let columns = versionedAnswerColumns(tenant, options);
    if (!options.codes && options.chosen) {
      const chosen = new Set(options.chosen);
      columns = columns.filter((column) => chosen.has(column.key));
    }
    if (!options.codes) {
      const answered = await answeredKeys(db, where);
      columns = columns.filter((column) => !column.repeated || answered.has(column.key));
    }
    yield `\ufeff${csv([[...fixedHeaders(timeZone), ...columns.map((column) => column.header)]])}`;
    let after: SQL | null = null;
    for (;;) {
      const result =
        (await db.execute(sql`select ${LISTING_COLUMNS}, a.answers, a.definition_version,
          ${sortKeyOf(query)} as sort_key,
          (select jsonb_object_agg(d.question_key, d.file_name) from documents d
            where d.tenant_id = l.tenant_id and d.user_id = l.user_id and d.answered) as files
        from staff_listing l join applications a on a.tenant_id = l.tenant_id and a.user_id = l.user_id
        where ${where}${after ? sql` and ${after}` : sql``}
        order by ${order} limit ${BATCH}`)) as unknown as { rows: ExportRow[] };
      const last = result.rows.at(-1);
      if (!last) return;
      after = seek(query, positionOfRow(last), 'after');
      const opened = await Promise.all(
        result.rows.map((row) => vault.open({ tenantId, userId: row.id }, row.answers)),
      );
      yield csv(
        result.rows.map((row, index) => {
          const definition = tenant.definitionAt(row.definition_version);
          const answers = {
            ...answersForCopy(definition, opened[index] ?? {}),
            ...(row.files ?? {}),
          };
          return [
            row.id,
            row.name,
            row.email,
            row.status,
            ...times(row.submitted_at),
            ...times(row.updated_at),
            row.documents,
            ...columns.map((column) =>
              cell((column.labelKey ? answers[column.labelKey] : undefined) ?? answers[column.key]),
            ),
          ];
        }),
      );
      if (result.rows.length < BATCH) return;
    }
  }
  return Readable.from(lines());
}

/** A part of a file name: ASCII letters and digits, words joined by hyphens. */
const namePart = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .replace(/ +/g, '-')
    .toLowerCase();

/**
 * The export's file name: the tenant, what was filtered ("all" for nothing) and the day it was
 * made: `applications-northfield-submitted-search-maria-2026-11-27.csv`.
 */
export function exportFileName(tenantId: string, filter: ApplicationQuery, day: string): string {
  const summary = [
    filter.status ?? '',
    filter.from ? `from ${filter.from}` : '',
    filter.to ? `to ${filter.to}` : '',
    filter.q ? `search ${filter.q}` : '',
  ]
    .map(namePart)
    .filter(Boolean)
    .join('-')
    .slice(0, 80)
    .replace(/-$/, '');
  return `applications-${namePart(tenantId)}-${summary || 'all'}-${day}.csv`;
}
