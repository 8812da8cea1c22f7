/** SPEC 2.4's completion route: the application's completion page with the PDF feature's link (D188). */
import { PdfDownloadLink } from './features/application-pdf/PdfDownloadLink';
import { CompletionPage } from './features/application/CompletionPage';

export function CompletionScreen() {
  return <CompletionPage pdfLink={<PdfDownloadLink />} />;
}
