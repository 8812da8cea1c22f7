/** The copy's HTML from the print renderer set, and which documents it shows in which order. */
import { applicantNameOf, printDate, renderApplicationHtml } from '../../../renderers/print/render';
import {
  answersForCopy,
  addAnotherGroups,
  questionsOf,
  visibleView,
  type Definition,
} from '../../../runtime';
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

/** The copy's HTML (the print set, SSN masked as the definition says) and the documents it shows. */
export function copyHtml(
  definition: Definition,
  sources: Sources,
  now: Date,
): { html: string; attachments: Sources['documents']; applicantName: string; date: string } {
  const printedAt = sources.submittedAt ?? now;
  const order = attachmentOrder(definition, sources.answers, sources.tabs, printedAt);
  const attachments = order.flatMap((key) => {
    const document = sources.documents.find((candidate) => candidate.questionKey === key);
    return document ? [document] : [];
  });
  const answers = answersForCopy(definition, sources.answers);
  const date = printDate(printedAt);
  const html = renderApplicationHtml({
    definition,
    answers,
    tabs: sources.tabs,
    documents: attachments.map((document) => document.questionKey),
    now: printedAt,
    date,
    submitted: sources.submittedAt ? printDate(sources.submittedAt) : undefined,
    reference: sources.reference,
    // The header and "Page N of M" are stamped over every page once the documents are attached.
    frame: false,
  });
  return { html, attachments, applicantName: applicantNameOf(answers), date };
}
