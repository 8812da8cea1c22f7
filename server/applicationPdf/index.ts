/**
 * The applicant's PDF copy (SPEC 2.4, 3.4, 4.5, 7.2 `GET /api/pdf`; D55): the print renderer set's
 * HTML printed once by the warm Chromium, the converted documents drawn on its framed pages, stored, and
 * handed out through a short-lived download URL that only works in the applicant's own session. It
 * is prepared by a job of the durable queue after submit and whenever it is asked for while its
 * sources (answers, tabs, documents, submission) have changed since it was made.
 *
 * sources.ts gathers the data, layout.ts the HTML, print.ts prints, pages.ts draws the attached
 * pages, request.ts and job.ts queue and prepare it, download.ts hands it out.
 */
export { APPLICATION_PDF_JOB, type ApplicationPdfContext } from './context';
export { copyFileName, downloadPdf, pdfStatus, personalPdfFileName } from './download';
export { applicationPdfJob } from './job';
export { copyAttachments, copyHtml } from './layout';
export { buildApplicationPdf } from './print';
export { pdfRoutes } from './routes';
export { requestPdf } from './request';
export { applicationReference, readSourcesAndPdf, type Sources } from './sources';
export { referenceIdRange } from '#contract/submission.ts';
