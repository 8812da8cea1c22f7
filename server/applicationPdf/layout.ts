/** The copy's HTML from the print renderer set, and which documents it shows in which order. */
import { collegeTime } from '#contract/collegeTime.ts';
import { renderApplicationHtml } from '#renderers/print/render.ts';
import {
  answersForCopy,
  addAnotherGroups,
  questionsOf,
  visibleView,
  type Definition,
} from '#runtime';
import { embeddedPrintFonts } from '../pdf/fonts';
import type { Sources } from './sources';

/** The file questions shown in the copy, in reading order (every add-another instance counted). */
function attachmentOrder(
  definition: Definition,
  answers: Record<string, unknown>,
  tabs: Record<string, string>,
  now: Date,
): { key: string; label: string }[] {
  const pages = visibleView(definition, answers, {
    addAnother: Object.fromEntries(addAnotherGroups(definition)),
    tabs,
    now,
  });
  return questionsOf(pages)
    .filter((view) => view.questionKind === 'file')
    .map((view) => ({ key: view.key, label: view.question.label }));
}

type CopyAttachment = Sources['documents'][number] & { readonly questionLabel: string };

/** The converted documents the copy shows, in the order it shows them, with their question's label. */
export function copyAttachments(
  definition: Definition,
  sources: Sources,
  now: Date,
): CopyAttachment[] {
  const order = attachmentOrder(
    definition,
    sources.answers,
    sources.tabs,
    sources.submittedAt ?? now,
  );
  return order.flatMap(({ key, label }) => {
    const document = sources.documents.find((candidate) => candidate.questionKey === key);
    return document ? [{ ...document, questionLabel: label }] : [];
  });
}

/**
 * The copy's HTML (the print set, SSN masked as the definition says, carrying its fonts: D135). With
 * `attachedPages` (the page count of each of `copyAttachments`, in its order), each document gets a
 * separator page and framed empty pages at the end to be drawn on (D161).
 */
export function copyHtml(
  definition: Definition,
  sources: Sources,
  now: Date,
  attachedPages: readonly number[] = [],
): string {
  const printedAt = sources.submittedAt ?? now;
  const attached = copyAttachments(definition, sources, now);
  return renderApplicationHtml({
    definition,
    answers: answersForCopy(definition, sources.answers),
    tabs: sources.tabs,
    documents: attached.map((document) => document.questionKey),
    now: printedAt,
    // The college's time, its zone named, as on every screen and in every mail (D197).
    date: collegeTime(printedAt, sources.timeZone),
    submitted: sources.submittedAt ? collegeTime(sources.submittedAt, sources.timeZone) : undefined,
    draft: sources.submittedAt === null,
    reference: sources.reference,
    attachments: attachedPages.map((pages, index) => ({
      questionLabel: attached[index]?.questionLabel ?? '',
      fileName: attached[index]?.fileName ?? '',
      pages,
    })),
    fonts: embeddedPrintFonts(),
  });
}
