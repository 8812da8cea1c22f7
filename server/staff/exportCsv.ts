/**
 * The CSV export: the filtered applications, one row each, with the list's columns and
 * then a column per answer key of the definition, headed by the question's label and its key. Coded
 * answers carry their labels beside them (`<key>_desc`, D74); masked answers stay masked as in every
 * copy. Cells a spreadsheet would read as a formula (starting with =, +, -, @, tab or carriage
 * return) are neutralised by csv-stringify's `escape_formulas` (a leading apostrophe). Rows are read
 * in batches, each seeking past the last (D107), so an export of every application streams in
 * bounded memory and time. Each application is read under the definition version it was submitted
 * with; the columns are the latest version's, then those only earlier versions had (D145).
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { sql, type SQL } from 'drizzle-orm';
import { answersForCopy, compile, type Definition } from '../../runtime';
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

const BATCH = 500;

const FIXED_HEADERS = [
  'Applicant ID',
  'Name',
  'E-mail',
  'Status',
  'Submitted',
  'Last change',
  'Documents',
];

/** The columns of every published version: the latest's in its order, then older-only keys. */
export function versionedAnswerColumns(tenant: Pick<Tenant, 'versions' | 'definitionAt'>) {
  const columns = new Map<string, string>();
  for (const version of [...tenant.versions].reverse())
    for (const { key, header } of answerColumns(tenant.definitionAt(version)))
      if (!columns.has(key)) columns.set(key, header);
  return [...columns].map(([key, header]) => ({ key, header }));
}

/** Every answer key in definition order, with a human header: "Question label [key]". */
export function answerColumns(definition: Definition): { key: string; header: string }[] {
  const model = compile(definition);
  return [...model.keySpecs.keys()].map((key) => {
    const instance = model.byKey.get(key)?.[0];
    const label = instance?.question.label.trim();
    let header = label || key;
    if (instance?.descKey === key) header = `${header} (label)`;
    else if (instance?.yearKey === key) header = `${header} (year)`;
    return { key, header: `${header} [${key}]` };
  });
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

const iso = (value: string | Date | null) => (value === null ? '' : new Date(value).toISOString());

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
): Readable {
  const columns = versionedAnswerColumns(tenant);
  const where = filterOf(tenantId, query);
  const order = orderOf(query);
  async function* lines() {
    yield csv([[...FIXED_HEADERS, ...columns.map((column) => column.header)]]);
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
            iso(row.submitted_at),
            iso(row.updated_at),
            row.documents,
            ...columns.map((column) => cell(answers[column.key])),
          ];
        }),
      );
      if (result.rows.length < BATCH) return;
    }
  }
  return Readable.from(lines());
}
