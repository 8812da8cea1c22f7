/**
 * The whole application as staff and the PDF see it: every page of the definition, drawn with the
 * print set from a fixed answer map (the service view renders it in the browser, `html.tsx` on the
 * server).
 */
import { useMemo } from 'react';
import { addAnotherGroups, visibleView, type Definition } from '../../runtime';
import { FormProvider, PageOutlet, staticAnswers, staticErrors } from '../react';
import { printRenderers } from './index';
import { PrintProvider } from './PrintContext';
import { PRINT_CLASS as c } from './stylesheet';

export interface PrintApplicationProps {
  readonly definition: Definition;
  /** The student answers (SPEC 3.3). */
  readonly answers: Readonly<Record<string, unknown>>;
  /** Chosen tab per tab group (SPEC 3.5); each group's default where absent. */
  readonly tabs?: Readonly<Record<string, string>>;
  /** Question keys that have a document (the keys of the document answers, SPEC 3.4). */
  readonly documents?: Iterable<string>;
  /** Shown in the header; omitted when empty. */
  readonly applicantName?: string;
  /** The header's date, already formatted. */
  readonly date?: string;
  /** The submission date, formatted, shown on the first page when the application was submitted. */
  readonly submitted?: string;
  /** Not submitted: marked "Draft — not submitted" on the first page (and, in the PDF, on every page). */
  readonly draft?: boolean;
  /** The application reference admissions file it under, shown on the first page. */
  readonly reference?: string;
  /** The clock for date-dependent content (year lists); injected for determinism. */
  readonly now?: Date;
  /** The heading level of the document title (1 in a page of its own). */
  readonly headingLevel?: 1 | 2;
}

/** The first page's labels. */
export const PRINT_LABELS = {
  submitted: 'Submitted',
  reference: 'Application reference',
  draft: 'Draft — not submitted',
} as const;

const NO_ERRORS = staticErrors({});
const NO_ACTIONS = {};

/**
 * Every add-another group at its maximum: the print repeat then keeps exactly the instances that
 * hold answers, whatever count the applicant's screen last showed.
 */
function allInstances(definition: Definition): Record<string, number> {
  return Object.fromEntries(addAnotherGroups(definition));
}

/** The applicant's name from the answers (first, middle, last), for the header. */
export function applicantNameOf(answers: Readonly<Record<string, unknown>>): string {
  return ['first_name', 'middle_name', 'last_name']
    .map((key) => answers[key])
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .join(' ');
}

/** The header's date in US English, e.g. "November 22, 2026" (UTC unless a zone is given). */
export function printDate(date: Date, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone }).format(date);
}

export function PrintApplication({
  definition,
  answers,
  tabs = {},
  documents = [],
  applicantName = '',
  date = '',
  submitted,
  draft = false,
  reference,
  now,
  headingLevel = 1,
}: PrintApplicationProps) {
  const source = useMemo(() => staticAnswers(answers), [answers]);
  const documentSet = useMemo(() => new Set(documents), [documents]);
  const pages = useMemo(
    () =>
      visibleView(definition, answers, {
        addAnother: allInstances(definition),
        tabs,
        now,
      }),
    [definition, answers, tabs, now],
  );
  const Title = headingLevel === 1 ? 'h1' : 'h2';
  const PageTitle = headingLevel === 1 ? 'h2' : 'h3';
  return (
    <FormProvider
      value={{
        renderers: printRenderers,
        answers: source,
        errors: NO_ERRORS,
        anonymous: false,
        actions: NO_ACTIONS,
      }}
    >
      <PrintProvider value={{ documents: documentSet }}>
        <article className={c.document} aria-label={definition.title}>
          <div className={c.header}>
            <Title className={c.title}>{definition.title}</Title>
            {draft ? <p className={c.draft}>{PRINT_LABELS.draft}</p> : null}
            {/* The date is left out where it is the submission time, said on the next line. */}
            {applicantName || (date && date !== submitted) ? (
              <p className={c.meta}>
                {[applicantName, date === submitted ? '' : date].filter(Boolean).join(' · ')}
              </p>
            ) : null}
            {submitted || reference ? (
              <p className={c.meta}>
                {[
                  submitted ? `${PRINT_LABELS.submitted}: ${submitted}` : '',
                  reference ? `${PRINT_LABELS.reference}: ${reference}` : '',
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
            ) : null}
          </div>
          {pages.map((page) => (
            <div key={page.id} className={c.page} data-page={page.id}>
              <PageTitle className={c.pageTitle}>{page.title}</PageTitle>
              <PageOutlet page={page} />
            </div>
          ))}
        </article>
      </PrintProvider>
    </FormProvider>
  );
}
