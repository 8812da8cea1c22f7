/** Gathering what the PDF is made from (answers, tabs, documents, submission) and its digest. */
import { and, eq, sql } from 'drizzle-orm';
import type { Definition } from '#runtime';
import { applicationPdfs, applications, documents } from '../db/schema';
import { applicationReference } from '#contract/submission.ts';
import { sha256 } from '../secrets';
import { isSealed, vaultOf } from '../crypto/answerVault';
import type { Applicant } from '../http/context';
import type { DefinitionAt } from '../tenant';
import { answeredOf } from '../db/answeredDocuments';
import { pdfRowOf, type ApplicationPdfContext } from './context';

/** Bump when the PDF's layout changes: every stored PDF is then prepared again when next asked for. */
const LAYOUT_VERSION = 4;

/** What the PDF is made from, and a digest of it that changes whenever any of it does. */
export interface Sources {
  /** The definition the application is read under: its submitted version, else the latest. */
  readonly definition: Definition;
  readonly answers: Record<string, unknown>;
  readonly tabs: Record<string, string>;
  readonly submittedAt: Date | null;
  readonly documents: readonly { questionKey: string; fileName: string; pdfKey: string }[];
  /** The application reference printed on the first page (`applicationReference`). */
  readonly reference: string;
  /** The college's time zone, which the copy's times are written in (`collegeTime`, D197). */
  readonly timeZone: string;
  readonly digest: string;
}

export { applicationReference };

/** JSON with object keys sorted, so equal data always gives the same digest. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : inner,
  );
}

/** The applicant's converted documents, by question key, as one JSON column of a statement. */
const convertedDocumentsColumn = (user: Applicant) =>
  sql<
    [string, string, string, number][]
  >`(select coalesce(json_agg(json_build_array(${documents.questionKey}, ${documents.fileName}, ${documents.pdfKey}, ${documents.generation}) order by ${documents.questionKey}), '[]') from ${documents} where ${answeredOf(user)} and ${documents.pdfKey} is not null)`;

/**
 * The sources and the applicant's PDF row (null when there is none yet), read in one statement:
 * a status request that finds the PDF current needs nothing else (D123).
 */
export async function readSourcesAndPdf(
  ctx: Pick<ApplicationPdfContext, 'db' | 'config' | 'institutionOf'>,
  user: Applicant,
  definitions: DefinitionAt,
): Promise<{ sources: Sources; pdf: typeof applicationPdfs.$inferSelect | null }> {
  const [row] = await ctx.db
    .select({
      answers: applications.answers,
      tabs: applications.tabs,
      submittedAt: applications.submittedAt,
      definitionVersion: applications.definitionVersion,
      documents: convertedDocumentsColumn(user),
      pdf: applicationPdfs,
    })
    .from(sql`(select 1) as one`)
    .leftJoin(
      applications,
      and(eq(applications.tenantId, user.tenantId), eq(applications.userId, user.userId)),
    )
    .leftJoin(applicationPdfs, pdfRowOf(user));
  const attached = (row?.documents ?? []).map(([questionKey, fileName, pdfKey, generation]) => ({
    questionKey,
    fileName,
    pdfKey,
    generation,
  }));
  const stored = row?.answers ?? {};
  const sources = sourcesOf(user, definitions(row?.definitionVersion), {
    answers: await vaultOf(ctx).open(user, stored),
    stored,
    tabs: row?.tabs ?? {},
    submittedAt: row?.submittedAt ?? null,
    attached,
    timeZone: ctx.institutionOf(user.tenantId).time_zone,
  });
  return { sources, pdf: row?.pdf ?? null };
}

export async function readSources(
  ctx: Pick<ApplicationPdfContext, 'db' | 'config' | 'institutionOf'>,
  user: Applicant,
  definitions: DefinitionAt,
): Promise<Sources> {
  return (await readSourcesAndPdf(ctx, user, definitions)).sources;
}

function sourcesOf(
  user: Applicant,
  definition: Definition,
  read: {
    answers: Record<string, unknown>;
    /** The answers as stored: the digest takes a sealed value's keyed digest, never its plaintext (D150). */
    stored: Record<string, unknown>;
    tabs: Record<string, string>;
    submittedAt: Date | null;
    attached: { questionKey: string; fileName: string; pdfKey: string; generation: number }[];
    timeZone: string;
  },
): Sources {
  const { answers, stored, tabs, submittedAt, attached, timeZone } = read;
  const digest = sha256(
    canonicalJson({
      layout: LAYOUT_VERSION,
      definition: [definition.id, definition.version],
      answers: Object.fromEntries(
        Object.entries(stored).map(([key, value]) => [key, isSealed(value) ? value.digest : value]),
      ),
      tabs,
      submittedAt: submittedAt?.toISOString() ?? null,
      timeZone,
      documents: attached.map((row) => [row.questionKey, row.generation, row.pdfKey]),
    }),
  );
  return {
    definition,
    answers,
    tabs,
    submittedAt,
    documents: attached.map(({ questionKey, fileName, pdfKey }) => ({
      questionKey,
      fileName,
      pdfKey,
    })),
    reference: applicationReference(user.userId),
    timeZone,
    digest,
  };
}
