/** Gathering what the PDF is made from (answers, tabs, documents, submission) and its digest. */
import { and, eq } from 'drizzle-orm';
import type { Definition } from '../../../runtime';
import { applications } from '../../db/schema';
import { sha256 } from '../../secrets';
import type { Applicant } from '../context';
import { convertedDocuments } from '../documents';
import type { ApplicationPdfContext } from './context';

/** Bump when the PDF's layout changes: every stored PDF is then prepared again when next asked for. */
const LAYOUT_VERSION = 2;

/** What the PDF is made from, and a digest of it that changes whenever any of it does. */
export interface Sources {
  readonly answers: Record<string, unknown>;
  readonly tabs: Record<string, string>;
  readonly submittedAt: Date | null;
  readonly documents: readonly { questionKey: string; fileName: string; pdfKey: string }[];
  /** The application reference printed on the first page (`applicationReference`). */
  readonly reference: string;
  readonly digest: string;
}

/**
 * The reference admissions files a copy under: the first 8 hex digits of the applicant's random id,
 * as `XXXX-XXXX` (staff find the applicant by that prefix; it reveals nothing the copy does not).
 */
export function applicationReference(userId: string): string {
  const hex = userId
    .replace(/[^0-9a-f]/gi, '')
    .slice(0, 8)
    .toUpperCase();
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
}

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

export async function readSources(
  ctx: Pick<ApplicationPdfContext, 'db'>,
  user: Applicant,
  definition: Definition,
): Promise<Sources> {
  const [application] = await ctx.db
    .select({
      answers: applications.answers,
      tabs: applications.tabs,
      submittedAt: applications.submittedAt,
    })
    .from(applications)
    .where(and(eq(applications.tenantId, user.tenantId), eq(applications.userId, user.userId)));
  const attached = await convertedDocuments(ctx, user);
  const answers = application?.answers ?? {};
  const tabs = application?.tabs ?? {};
  const submittedAt = application?.submittedAt ?? null;
  const digest = sha256(
    canonicalJson({
      layout: LAYOUT_VERSION,
      definition: [definition.id, definition.version],
      answers,
      tabs,
      submittedAt: submittedAt?.toISOString() ?? null,
      documents: attached.map((row) => [row.questionKey, row.generation, row.pdfKey]),
    }),
  );
  return {
    answers,
    tabs,
    submittedAt,
    documents: attached,
    reference: applicationReference(user.userId),
    digest,
  };
}
