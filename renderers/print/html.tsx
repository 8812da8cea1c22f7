/**
 * The application as one HTML document for printing (the PDF job prints it with Chromium). Uses
 * `react-dom/server` only, so it runs in Node without a DOM; kept apart from the component so the
 * browser never loads the server renderer.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import {
  applicantNameOf,
  PrintApplication,
  PRINT_LABELS,
  printDate,
  type PrintApplicationProps,
} from './application';
import { PRINT_CLASS, pageRules, printStylesheet, type PrintFonts } from './stylesheet';

/**
 * Fonts a printer brings with the document (the server's, D135): the families to ask for, and the
 * @font-face rules for the characters of a text.
 */
export interface EmbeddedPrintFonts {
  readonly families: PrintFonts;
  fontFaces(text: string): string;
}

/** `<` and `&` escaped for text inside an HTML element. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attached document drawn after the application: its question, its file and its page count. */
export interface PrintAttachment {
  readonly questionLabel: string;
  readonly fileName: string;
  readonly pages: number;
}

/** The words of the caption over an attached document's first page. */
export const SEPARATOR_TEXT = {
  title: 'Attached document',
  question: 'Question',
  file: 'File',
} as const;

/**
 * One framed empty page per page of an attached document (at least one), the first captioned with
 * its question and its file in a band of fixed height (`ATTACHMENT_CAPTION_INCHES`) that the server
 * draws the document's first page below: no page of its own that says only which document follows
 * (D197). The caption is a heading, so the tagged PDF's reader and its outline find the document.
 */
function attachmentPages({ questionLabel, fileName, pages }: PrintAttachment): string {
  const c = PRINT_CLASS;
  const t = SEPARATOR_TEXT;
  const caption = `<div class="${c.document} ${c.frame} ${c.separator}"><h2 class="${c.separatorTitle}">${t.title} · ${t.question}: ${escapeHtml(questionLabel)}</h2><p class="${c.separatorFile}">${t.file}: ${escapeHtml(fileName)}</p></div>`;
  return caption + `<div class="${c.frame}">&#160;</div>`.repeat(Math.max(0, pages - 1));
}

/**
 * A complete HTML document of the application for printing: the print stylesheet, Letter pages, the
 * applicant's name and the date in each page's header (and a draft's mark between them) and
 * "Page N of M" in the footer. For each of `attachments` the server gets empty pages, framed like
 * the others, to draw the document's pages on, the first captioned with the question and the file:
 * M then counts them, in the one print. With `fonts` the document carries the
 * fonts its text needs; without, it is written in the machine's.
 */
export function renderApplicationHtml(
  props: Omit<PrintApplicationProps, 'headingLevel'> & {
    readonly attachments?: readonly PrintAttachment[];
    readonly fonts?: EmbeddedPrintFonts;
  },
): string {
  const { attachments = [], fonts, ...rest } = props;
  const name = rest.applicantName ?? applicantNameOf(rest.answers);
  const date = rest.date ?? printDate(rest.now ?? new Date());
  const body = renderToStaticMarkup(
    <PrintApplication {...rest} applicantName={name} date={date} headingLevel={1} />,
  );
  const attached = attachments.map(attachmentPages).join('');
  const title = [props.definition.title, name].filter(Boolean).join(' – ');
  const draftMark = rest.draft ? PRINT_LABELS.draft : undefined;
  const rules = `${printStylesheet(fonts?.families)}${pageRules(name, date, fonts?.families, draftMark)}`;
  // The header's name, date and draft mark are printed too; the rules' own characters are ASCII.
  const faces = fonts?.fontFaces(`${body}${attached}${name}${date}${rules}`) ?? '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>${faces}${rules}</style>
</head>
<body>${body}${attached}</body>
</html>
`;
}
