/**
 * Documents (SPEC 4.4, 7.2): presigned uploads, conversion requests and their status, document
 * answers and deletion. Every query is scoped by tenant and user; a file key is accepted only under
 * the applicant's own `<tenant>/<user>/<question>/` prefix.
 *
 * checks.ts holds what a call accepts, uploads.ts the upload forms and their sweep, conversion.ts
 * the conversion request and job, state.ts the reads, deletion.ts the delete paths.
 */
export { CONVERSION_JOB, UPLOAD_SWEEP_JOB, type DocumentsContext } from './context';
export { conversionJob, requestConversion } from './conversion';
export { deleteConversion, deleteDocumentAnswer } from './deletion';
export { documentRoutes } from './routes';
export { conversionStatus, convertedDocuments, documentAnswers } from './state';
export { MAX_PENDING_UPLOADS, presign, uploadSweepJob } from './uploads';
