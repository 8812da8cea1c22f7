/** Entry for the server (PDF): the whole application as a printable HTML document. */
export {
  renderApplicationHtml,
  SEPARATOR_TEXT,
  type EmbeddedPrintFonts,
  type PrintAttachment,
} from './html';
export { ATTACHMENT_CAPTION_INCHES, PAGE_MARGIN_INCHES } from './stylesheet';
export {
  PrintApplication,
  applicantNameOf,
  printDate,
  type PrintApplicationProps,
} from './application';
