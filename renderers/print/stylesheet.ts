/**
 * The print set's class names and its one stylesheet, as data: the server inlines it into the PDF's
 * HTML and the service view renders it in a <style> element, so there is no CSS pipeline to share.
 */
export const PRINT_CLASS = {
  document: 'pr-document',
  header: 'pr-header',
  draft: 'pr-draft',
  title: 'pr-title',
  meta: 'pr-meta',
  frame: 'pr-frame',
  page: 'pr-page',
  pageTitle: 'pr-page-title',
  section: 'pr-section',
  sectionTitle: 'pr-section-title',
  paragraph: 'pr-paragraph',
  field: 'pr-field',
  long: 'pr-long',
  checkbox: 'pr-checkbox',
  label: 'pr-label',
  value: 'pr-value',
  prewrap: 'pr-prewrap',
  group: 'pr-group',
  repeat: 'pr-repeat',
  instance: 'pr-instance',
  instanceTitle: 'pr-instance-title',
  tabs: 'pr-tabs',
  separator: 'pr-separator',
  separatorTitle: 'pr-separator-title',
  separatorFile: 'pr-separator-file',
  /** A question whose explanation follows it (a radio's revealed content, a checkbox's, a tab's). */
  explained: 'pr-explained',
} as const;

const c = PRINT_CLASS;

/** The font families the print set asks for: text, and the checkbox marks' monospace. */
export interface PrintFonts {
  readonly text: string;
  readonly mono: string;
}

/**
 * The machine's own fonts (the service view in a browser); the server's PDF asks for the fonts it
 * embeds instead (D135).
 */
export const SYSTEM_PRINT_FONTS: PrintFonts = {
  text: "Georgia, 'Times New Roman', serif",
  mono: "'Courier New', monospace",
};

/** The page box every printed page shares: US Letter, and the margins the header and footer use. */
export const PAGE_SIZE = 'letter';
export const PAGE_MARGIN_INCHES = { vertical: 0.8, horizontal: 0.75 } as const;
/** The band atop an attached document's first page that names it; the document is drawn below. */
export const ATTACHMENT_CAPTION_INCHES = 0.7;

/** Screen and print rules; the @page rules (Letter, header, page numbers) come from `pageRules`. */
export function printStylesheet(fonts: PrintFonts = SYSTEM_PRINT_FONTS): string {
  return `
.${c.document} { font-family: ${fonts.text}; color: #1a1a1a; font-size: 11pt; line-height: 1.4; max-width: 52rem; margin: 0 auto; padding: 1rem 1.5rem; background: #fff; }
.${c.header} { border-bottom: 1px solid #555; margin-bottom: 1rem; }
.${c.draft} { margin: 0.25rem 0; padding: 0.25rem 0.5rem; border: 2px solid #8a1c1c; color: #8a1c1c; font-weight: 700; }
.${c.title} { font-size: 1.5em; margin: 0 0 0.25rem; }
.${c.meta} { margin: 0 0 0.5rem; }
.${c.pageTitle} { font-size: 1.3em; margin: 1.5rem 0 0.5rem; border-bottom: 1px solid #999; }
.${c.page}:first-of-type .${c.pageTitle} { margin-top: 0; }
.${c.sectionTitle} { font-size: 1.1em; margin: 1rem 0 0.4rem; }
.${c.instanceTitle} { font-size: 1em; margin: 0.75rem 0 0.25rem; font-style: italic; }
.${c.paragraph} { margin: 0.25rem 0 0.5rem; }
.${c.field} { display: grid; grid-template-columns: minmax(10rem, 40%) 1fr; gap: 0.75rem; padding: 0.15rem 0; break-inside: avoid; }
.${c.checkbox} { grid-template-columns: auto 1fr; }
/* A long answer flows across pages from where it is reached (kept whole, it left a nearly blank
   page before it); its label stays with its first lines. */
.${c.long} { display: block; break-inside: auto; }
.${c.long} > .${c.label} { display: block; margin-bottom: 0.15rem; break-after: avoid; }
.${c.long} > .${c.value} { display: block; orphans: 3; widows: 3; }
.${c.label} { font-weight: bold; }
.${c.checkbox} .${c.label} { font-weight: normal; }
.${c.value} { overflow-wrap: anywhere; }
.${c.checkbox} .${c.value} { font-family: ${fonts.mono}; }
.${c.prewrap} { white-space: pre-wrap; }
.${c.instance} { padding-left: 0.75rem; border-left: 2px solid #ccc; margin: 0.5rem 0; }
.${c.separatorTitle} { font-size: 1.05em; line-height: 1.25; margin: 0; }
.${c.separatorFile} { line-height: 1.25; margin: 0.1rem 0 0; }
@media print {
  .${c.document} { max-width: none; padding: 0; }
  /* The form's pages flow on from one another (a page of its own left a few lines alone, D161);
     a heading stays with what follows it, and a parent or an honor is kept whole when it fits. */
  .${c.sectionTitle}, .${c.instanceTitle}, .${c.pageTitle} { break-after: avoid; }
  .${c.instance} { break-inside: avoid; }
  /* A question stays with the explanation that follows it (D197): the explanation's label and its
     first lines come along (.${c.long}), so "Yes" is never left at a page's foot with the why on
     the next. */
  .${c.explained} { break-after: avoid; }
  /* An empty framed page for each page of an attached document; the first carries the caption,
     in a band of fixed height the server draws the document's first page below (D197). */
  .${c.frame} { break-before: page; }
  .${c.separator} { height: ${ATTACHMENT_CAPTION_INCHES}in; overflow: hidden; box-sizing: border-box; border-bottom: 1px solid #999; }
  .${c.separatorTitle} { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; }
  .${c.separatorFile} { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
}
`;
}

export const PRINT_STYLESHEET = printStylesheet();

/** A CSS string literal: quotes and backslashes escaped, no line breaks, no `<` (it sits in <style>). */
export function cssString(text: string): string {
  return `"${text
    .replace(/[\\"]/g, '\\$&')
    .replace(/[\r\n\f]+/g, ' ')
    .replace(/</g, '\\3c ')}"`;
}

/**
 * US Letter pages with the applicant's name and the date in the header and the page number in the
 * footer (Chromium prints @page margin boxes since version 131); a draft's every page says so
 * between them (`draftMark`).
 */
export function pageRules(
  applicantName: string,
  date: string,
  fonts: PrintFonts = SYSTEM_PRINT_FONTS,
  draftMark?: string,
): string {
  const font = `9pt ${fonts.text}`;
  const margin = `${PAGE_MARGIN_INCHES.vertical}in ${PAGE_MARGIN_INCHES.horizontal}in`;
  return `
@page {
  size: ${PAGE_SIZE};
  margin: ${margin};
  @top-left { content: ${cssString(applicantName)}; font: ${font}; }
  @top-right { content: ${cssString(date)}; font: ${font}; }
${draftMark ? `  @top-center { content: ${cssString(draftMark)}; font: bold ${font}; color: #8a1c1c; }\n` : ''}  @bottom-center { content: "Page " counter(page) " of " counter(pages); font: ${font}; }
}
`;
}
