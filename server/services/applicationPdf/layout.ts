/** The copy's HTML from the print renderer set, and which documents it shows in which order. */
import { printDate, renderApplicationHtml } from '../../../renderers/print/render';
import {
  answersForCopy,
  addAnotherGroups,
  questionsOf,
  visibleView,
  type Definition,
} from '../../../runtime';
import { embeddedPrintFonts } from '../../pdf/fonts';
import type { Sources } from './sources';

/** The file questions shown in the copy, in reading order (every add-another instance counted). */
function attachmentOrder(
  definition: Definition,
  answers: Record<string, unknown>,
  tabs: Record<string, string>,
  now: Date,
): string[] {
  const pages = visibleView(definition, answers, {
    addAnother: Object.fromEntries(addAnotherGroups(definition)),
    tabs,
    now,
  });
  return questionsOf(pages)
    .filter((view) => view.question.kind === 'file')
    .map((view) => view.key);
}

/** The converted documents the copy shows, in the order it shows them. */
export function copyAttachments(
  definition: Definition,
  sources: Sources,
  now: Date,
): Sources['documents'] {
  const order = attachmentOrder(
    definition,
    sources.answers,
    sources.tabs,
    sources.submittedAt ?? now,
  );
  return order.flatMap((key) => {
    const document = sources.documents.find((candidate) => candidate.questionKey === key);
    return document ? [document] : [];
  });
}

/**
 * The copy's HTML (the print set, SSN masked as the definition says, carrying its fonts: D135), with
 * `blankPages` framed empty pages at the end for the attached documents' pages.
 */
export function copyHtml(
  definition: Definition,
  sources: Sources,
  now: Date,
  blankPages = 0,
): string {
  const printedAt = sources.submittedAt ?? now;
  return renderApplicationHtml({
    definition,
    answers: answersForCopy(definition, sources.answers),
    tabs: sources.tabs,
    documents: copyAttachments(definition, sources, now).map((document) => document.questionKey),
    now: printedAt,
    date: printDate(printedAt),
    submitted: sources.submittedAt ? printDate(sources.submittedAt) : undefined,
    draft: sources.submittedAt === null,
    reference: sources.reference,
    blankPages,
    fonts: embeddedPrintFonts(),
  });
}
