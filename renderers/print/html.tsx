/**
 * The application as one HTML document for printing (the PDF job prints it with Chromium). Uses
 * `react-dom/server` only, so it runs in Node without a DOM; kept apart from the component so the
 * browser never loads the server renderer.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import {
  applicantNameOf,
  PrintApplication,
  printDate,
  type PrintApplicationProps,
} from './application';
import { PRINT_CLASS, PRINT_STYLESHEET, pageRules } from './stylesheet';

/** `<` and `&` escaped for text inside an HTML element. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A complete HTML document of the application for printing: the print stylesheet, Letter pages, the
 * applicant's name and the date in each page's header and page numbers in the footer (unless
 * `frame` is false: then `renderPageFramesHtml` draws them over the finished PDF).
 */
export function renderApplicationHtml(
  props: Omit<PrintApplicationProps, 'headingLevel'> & { readonly frame?: boolean },
): string {
  const { frame = true, ...rest } = props;
  const name = rest.applicantName ?? applicantNameOf(rest.answers);
  const date = rest.date ?? printDate(rest.now ?? new Date());
  const body = renderToStaticMarkup(
    <PrintApplication {...rest} applicantName={name} date={date} headingLevel={1} />,
  );
  const title = [props.definition.title, name].filter(Boolean).join(' – ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>${PRINT_STYLESHEET}${pageRules(name, date, frame)}</style>
</head>
<body>${body}</body>
</html>
`;
}

/**
 * `pageCount` empty Letter pages that hold only the header (name, date) and the footer ("Page N of
 * M"), on a transparent page: the server draws page N of it over page N of the finished PDF, so the
 * count includes the attached documents and their pages carry the same header.
 */
export function renderPageFramesHtml(props: {
  readonly applicantName: string;
  readonly date: string;
  readonly pageCount: number;
}): string {
  const pages = Array.from(
    { length: props.pageCount },
    () => `<div class="${PRINT_CLASS.frame}">&#160;</div>`,
  ).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(props.applicantName)}</title>
<style>
html, body { margin: 0; background: transparent; }
.${PRINT_CLASS.frame} { break-after: page; }
.${PRINT_CLASS.frame}:last-child { break-after: auto; }
${pageRules(props.applicantName, props.date)}</style>
</head>
<body>${pages}</body>
</html>
`;
}
