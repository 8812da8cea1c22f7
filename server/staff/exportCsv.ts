/**
 * The CSV export: the filtered applications, one row each, the list's columns and the reference,
 * then a column per answer, headed as a person reads it (a repeat by its instance, alike labels by
 * their section, D199). A coded answer shows its label, a month/year reads "June 2027"; `codes`
 * keeps the stored codes beside their labels (`<key>_desc`, D74), the month and year apart, the
 * keys after the names and every column, for systems that import the export. The layout is the
 * form's (every published version's), whatever the rows answered, less the columns an admin left
 * out of the office's choice (D168; `codes` keeps them all). Masked answers stay masked as in every
 * copy. UTF-8 with a byte-order mark,
 * so a spreadsheet reads accents right. Cells a spreadsheet would read as a formula (starting with
 * =, +, -, @, tab or carriage return) are neutralised by csv-stringify's `escape_formulas`. Rows are
 * read in batches, each seeking past the last (D107), so an export of every application streams in
 * bounded memory and time. Each application is read under the definition version it was submitted
 * with; the columns are the latest version's, then those only earlier versions had (D145).
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { sql, type SQL } from 'drizzle-orm';
import {
  answersForCopy,
  dataModelEntries,
  questionOf,
  type Definition,
  type OptionEntry,
} from '../../runtime';
import { monthYearText } from '#renderers/answers.ts';
import { applicationReference } from '../applicationPdf';
import { headersOf, keyPlaces, type KeyPlace } from './exportHeaders';
import type { ApplicationQuery } from '../../contract/staff';
import type { Database } from '../db/client';
import type { AnswerVault } from '../crypto/answerVault';
import type { Tenant } from '../tenant';
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
  'Reference',
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
  /** A month/year's year key, when the column shows both as one ("June 2027"). */
  readonly yearKey: string | null;
  /** The months of a month/year column. */
  readonly months: readonly OptionEntry[] | null;
  readonly label: string;
  /** Where the key stands in the form: its page, section and repeat instance. */
  readonly place: KeyPlace | undefined;
  /** A repeat's column. */
  readonly repeated: boolean;
  readonly header: string;
}

export interface ExportOptions {
  /** Stored codes beside their labels, and every column (an admin's choice is for people). */
  readonly codes?: boolean;
  /** The answer columns an admin chose for the office, by key (D168); null: every column. */
  readonly chosen?: readonly string[] | null;
}

/**
 * Every answer key in definition order with its label: codes, `_desc` and year keys apart, or one
 * column each (a month/year as one, D199).
 */
export function answerColumns(definition: Definition, options: ExportOptions = {}): AnswerColumn[] {
  const places = keyPlaces(definition);
  const columns: Omit<AnswerColumn, 'header'>[] = [];
  for (const { key, role, question, repeated, labelKey } of dataModelEntries(definition)) {
    const place = places.get(key);
    const label = question?.label.trim() || place?.label || key;
    if (role === 'label' || role === 'year') {
      if (options.codes) {
        const shown = `${label} (${role})`;
        columns.push({
          key,
          labelKey: null,
          yearKey: null,
          months: null,
          label: shown,
          place,
          repeated,
        });
      }
      continue;
    }
    const monthYear = !options.codes && question?.kind === 'monthYear';
    columns.push({
      key,
      labelKey: options.codes ? null : labelKey,
      yearKey: monthYear ? yearKeyOf(definition, key) : null,
      months: monthYear ? monthsOf(definition) : null,
      label,
      place,
      repeated,
    });
  }
  return withHeaders(columns, options);
}

/** The year key that goes with a month key: the question's, in the month's slot. */
function yearKeyOf(definition: Definition, monthKey: string): string | null {
  const question = questionOf(definition, monthKey);
  if (question?.kind !== 'monthYear') return null;
  return monthKey.slice(0, monthKey.length - question.key.length) + question.yearKey;
}

const MONTH_NAMES = Array.from({ length: 12 }, (_, month) => ({
  value: String(month + 1),
  label: new Date(Date.UTC(2000, month, 1)).toLocaleString('en-US', {
    month: 'long',
    timeZone: 'UTC',
  }),
}));

const monthsOf = (definition: Definition): readonly OptionEntry[] =>
  definition.optionLists.months ?? MONTH_NAMES;

/** Headers as a person reads them, unique (D199); keys beside them for codes. */
function withHeaders(
  columns: readonly Omit<AnswerColumn, 'header'>[],
  options: ExportOptions,
): AnswerColumn[] {
  const headers = headersOf(columns, Boolean(options.codes));
  return columns.map((column, index) => ({ ...column, header: headers[index]! }));
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
            applicationReference(row.id),
            row.name,
            row.email,
            row.status,
            ...times(row.submitted_at),
            ...times(row.updated_at),
            row.documents,
            ...columns.map((column) =>
              column.yearKey
                ? monthYearText(answers[column.key], answers[column.yearKey], column.months)
                : cell(
                    (column.labelKey ? answers[column.labelKey] : undefined) ?? answers[column.key],
                  ),
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
