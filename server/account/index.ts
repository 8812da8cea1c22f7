/**
 * The applicant's account (SPEC 7.2, D152): registration and login, the session check every request
 * passes, sessions, lockout, the hourly limits per account, the account lock, deletion and export. What other slices and the app
 * use of it, and nothing else (D187).
 */
export {
  completedDeletionRequests,
  completeDeletionRequest,
  deleteAccountRows,
  deletionRequestList,
  notedObjects,
  removeNotedObjects,
  type DeletionContext,
} from './accountDeletion';
export { underAccountLock, type Transaction } from './accountLock';
export {
  ACCOUNT_REQUEST_JOB,
  accountRequestJob,
  type AccountRequestContext,
} from './accountRequests';
export { assertUncommon, normalizeEmail, RESET_VALIDITY_MS } from './accounts';
export { pruneAccountEvents, takeFromLimit } from './limits';
export { clearLoginFailures, reserveLoginAttempt } from './loginLockout';
export { publicRoutes } from './publicRoutes';
export { accountRoutes } from './routes';
export { registerSessionCheck } from './sessionCheck';
export { endAllSessions, endSession, type SessionUser } from './sessions';
