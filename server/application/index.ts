/**
 * The applicant's application (SPEC 7.2, /api/*): answers, form state, choices and the answers kept
 * before registration (their routes under /public). What other slices and the app use of it, and nothing else (D187).
 */
export { assertNotSubmitted, whileOpen } from './openApplication';
export { apiRoutes } from './routes';
export { tmpAnswersRoutes, tmpTokenQuery } from './tmpAnswersRoutes';
