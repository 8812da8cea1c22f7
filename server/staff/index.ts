/**
 * The staff console (docs/staff.md, `/staff/api/*`). What other slices, the jobs, the mail and the
 * command line use of it, and nothing else (D187): the export's answer columns, the PDF bundles'
 * job and inviting staff (the audit trail is written by server/db/auditTrail.ts).
 */
export { inviteStaff } from './accounts';
export { answerColumns } from './exportCsv';
export { expirePdfBundles, PDF_BUNDLE_JOB, pdfBundleJob } from './pdfBundles';
export { staffRoutes } from './routes';
