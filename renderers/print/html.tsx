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
import { PRINT_STYLESHEET, pageRules } from './stylesheet';

/** `<` and `&` escaped for text inside an HTML element. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A complete HTML document of the application for printing: the print stylesheet, Letter pages, the
 * applicant's name and the date in each page's header and page numbers in the footer.
 */
export function renderApplicationHtml(props: Omit<PrintApplicationProps, 'headingLevel'>): string {
  const name = props.applicantName ?? applicantNameOf(props.answers);
  const date = props.date ?? printDate(props.now ?? new Date());
  const body = renderToStaticMarkup(
    <PrintApplication {...props} applicantName={name} date={date} headingLevel={1} />,
  );
  const title = [props.definition.title, name].filter(Boolean).join(' – ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>${PRINT_STYLESHEET}${pageRules(name, date)}</style>
</head>
<body>${body}</body>
</html>
`;
}
