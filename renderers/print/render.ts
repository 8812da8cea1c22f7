/** Entry for the server (PDF) and the service view: the whole application, printed. */
export {
  PrintApplication,
  renderApplicationHtml,
  applicantNameOf,
  printDate,
  type PrintApplicationProps,
} from './application';
