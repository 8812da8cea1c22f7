/**
 * The product's own words for accounts, sessions and server errors (SPEC 5.2, 8). Client and server
 * both read them from here; form validation messages live in `definitions/`.
 */
export const accountMessages = {
  emailSignup: 'Your email address must be valid.',
  emailLogin: 'Please provide a valid email address.',
  passwordRequired: 'Password is required.',
  passwordsMatch: 'passwords must match',
  code: 'The confirmation code must be exactly 6 numbers.',
  resendEmail: 'You must provide a valid email address to resend a confirmation code.',
  passwordTooLong: 'Your password can have at most 256 characters.',
  passwordCommon: 'This password is too common. Please choose another.',
  resetIdMissing: 'This reset link is incomplete. Please use the link from your email.',
} as const;

/** What the server answers (SPEC 7.2 "message"). Enumeration-safe: never says whether an address exists. */
export const serverMessages = {
  signedUp:
    'We have sent a six-digit confirmation code to your email address. Enter it to confirm your account.',
  confirmed: 'Your account is confirmed. Please log in.',
  confirmFailed:
    'That confirmation code is incorrect or has expired. Check the code, or ask for a new one.',
  resent: 'If that account is waiting for confirmation, we have sent it a new confirmation code.',
  loggedIn: 'You are logged in.',
  loginFailed: 'Incorrect email address or password.',
  notConfirmed:
    'Your account is not confirmed yet. Enter the confirmation code we sent you, or ask for a new one.',
  lockedOut: (seconds: number) =>
    `Too many failed attempts. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again, or reset your password.`,
  /** REQ-ID-2 hard stop after 100 consecutive failures: only a password reset opens the account. */
  loginStopped: 'Too many failed attempts. Please reset your password to sign in again.',
  forgotSent:
    'If an account exists for that address, we have sent it a link to reset your password.',
  resetDone: 'Your password has been reset. Please log in with your new password.',
  resetFailed: 'This reset link is invalid or has expired. Please ask for a new one.',
  loggedOut: 'You have been logged out.',
  /** D142: after "Log out of all devices". */
  loggedOutEverywhere: 'You have been logged out on every device.',
  /** D152: "Delete my account" before submission, done at once. */
  accountDeleted: 'Your account and everything it held have been deleted.',
  /** D152: after submission the institution may have to keep the application; an admin completes it. */
  deletionRequested:
    'Your application is submitted, so the admission office completes the deletion: we have sent them your request and will e-mail you once it is done.',
  deletionPasswordWrong: 'That is not your password. Type the password you log in with.',
  saved: 'Your answers have been saved.',
  /** SECURITY.md REQ-R-2: the same answer was changed elsewhere (another tab or device). */
  answerConflict:
    'Some of your answers were changed in another tab or on another device. Choose which version to keep.',
  badIfMatch: 'The If-Match header must be the version number of your answers.',
  submitted: 'Your application was successfully submitted.',
  submitInvalid:
    'Your application is missing some information. Please review the highlighted questions.',
  alreadySubmitted: 'Your application has already been submitted and can no longer be changed.',
  notSubmittedYet: 'Your application has not been submitted yet.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  sessionRequired: 'Your session is invalid. Please clear your cookies and login again.',
  notFound: 'Not found.',
  methodNotAllowed: 'This call does not accept that method.',
  badRequest: 'The request could not be understood.',
  unsupportedType: 'Requests must be sent as JSON.',
  crossSite: 'This request came from another site and was refused.',
  tooLarge: 'The request is too large.',
  unknownKeys: (keys: readonly string[]) =>
    `These answers are not part of the application: ${keys.join(', ')}`,
  badValues: (keys: readonly string[]) =>
    `These answers have values the application does not accept: ${keys.join(', ')}`,
  tmpExpired: 'This link has expired or is not valid.',
  /** D70: sensitive answers are never kept without an account. */
  sensitiveNotKept: (keys: readonly string[]) =>
    `These answers can only be saved once you have an account: ${keys.join(', ')}`,
} as const;

/**
 * Documents (SPEC 5.6 checks, word for word, and the conversion outcomes the applicant sees when a
 * conversion ends FAILED). Both the app (before any upload) and the server (again) use them.
 */
export const documentMessages = {
  tooLarge: 'Your file is too large. The maximum file size is 1 MB.',
  wrongType: 'You can only enter the following file types: .png, .jpeg, .jpg, .pdf, .docx',
  nameTooLong:
    'The name of your file is too long. File name can have a maximum of 32 characters, including the extension.',
  empty: 'Your file is empty. Please upload a non-empty file.',
  oneFile: 'Please choose a single file.',
  badName:
    'The name of your file contains characters that are not allowed. Please rename it and try again.',
  notFileQuestion: (key: string) => `"${key}" is not a document question of this application.`,
  // The upload endpoint (presigned POST).
  uploadExpired: 'This upload link has expired. Please choose your file again.',
  uploadRefused: 'This upload was refused. Please choose your file again.',
  uploadNoFile: 'No file was received. Please choose your file again.',
  uploadNotFound: 'We could not find your uploaded file. Please choose your file again.',
  /** D71: the per-applicant cap on uploads not yet converted (MAX_PENDING_UPLOADS). */
  tooManyUploads:
    'You have too many uploads waiting to be used. Please wait a few minutes before uploading another file.',
  // Conversion states (GET /api/pdf/document-answer/{key} → message).
  notAnswered: 'No file has been uploaded for this question.',
  unprocessed: 'Your file is waiting to be converted.',
  inProgress: 'Your file is being converted.',
  completed: 'Your file was uploaded.',
  // Conversion failures: why the file could not be used.
  contentMismatch:
    'The contents of your file do not match a .png, .jpeg, .jpg, .pdf or .docx file. Please upload one of those.',
  imageTooLarge:
    'Your image has too many pixels (the limit is 40 megapixels). Please upload a smaller image.',
  imageBroken: 'Your image could not be read. Please save it again and upload it.',
  pdfEncrypted:
    'Your PDF is password-protected or encrypted. Please upload a copy without a password.',
  pdfBroken: 'Your PDF could not be read. Please save it again and upload it.',
  docxTooLarge:
    'Your Word document is too large once unpacked (the limit is 20 MB). Please upload a smaller document or a PDF.',
  docxExternal:
    'Your Word document refers to files outside itself, which we cannot accept. Please save it as a PDF and upload that.',
  docxImagesTooLarge:
    'The images in your Word document have too many pixels together (the limit is 40 megapixels). Please use smaller images, or save it as a PDF and upload that.',
  docxBroken: 'Your Word document could not be read. Please save it again, or upload a PDF.',
  timedOut:
    'Your file took too long to convert. Please upload a simpler file, or save it as a PDF.',
  conversionFailed:
    'Your file could not be converted. Please try again, or upload it in another format.',
} as const;

/** The application PDF (SPEC 3.4, 4.5): the status messages of `GET /api/pdf` and of the download. */
export const pdfMessages = {
  unprocessed: 'Your PDF copy is waiting to be prepared.',
  inProgress: 'Your PDF copy is being prepared.',
  completed: 'Your PDF copy is ready to download.',
  failed: 'We could not prepare your PDF copy. Please try again in a few minutes.',
  /** The download URL has expired or belongs to someone else. */
  linkExpired: 'This download link has expired. Please use the download link on the page again.',
} as const;

/** SPEC 8: the generic message for a response that is not JSON or has no message. */
export const GENERIC_ERROR_MESSAGE =
  "We've encountered an unexpected error at this time. Please try again later.";
/** SPEC 2.2, 8: shown on /login after any 401. */
export const SESSION_INVALID_MESSAGE =
  'Your session is invalid. Please clear your cookies and login again.';
/** SPEC 4.2: shown on /login after an inactivity logout. */
export const INACTIVITY_MESSAGE = 'You have been automatically logged out due to inactivity.';

/** Service users (SPEC 2.9, 6): what a staff member sees when a service link cannot be used. */
export const serviceMessages = {
  tokenInvalid: 'This service link is invalid or has expired. Please ask for a new one.',
  staffUnauthorized: 'A valid staff key is required.',
  noSuchApplicant: 'There is no applicant with that email address.',
  readOnly: 'Service links are read-only.',
  revoked: 'The service link was revoked.',
} as const;

/** Answers of GET /lookup/find; the applicant never sees them (SPEC 8: lookup failures are silent). */
export const lookupMessages = {
  badCategory: 'The category must be one of hs_ceeb, college_ceeb or address.',
  missingQuery: 'Give either text (what was typed) or id (a chosen entry).',
  badMaxResults: 'max_results must be a whole number from 1 to 20.',
  tooLong: 'The search text may be at most 100 characters.',
  notFound: 'No entry with that id in this list.',
} as const;

/** The `code` of the 409 that refuses any change to a submitted application (D69). */
export const SUBMITTED_CODE = 'SUBMITTED';
