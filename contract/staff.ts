/**
 * The staff console's calls (`/staff/api/*`, docs/staff.md): sign-in with a second factor,
 * invitations, the applications list, the audit log. `zod/mini` like the rest of the contract; the
 * console (loaded on demand) and the server parse with these same schemas. Not re-exported from
 * `contract/index.ts`, so nothing of it reaches the applicant's first page.
 */
import * as z from 'zod/mini';
import { EMAIL_PATTERN } from '../runtime';
import { serviceDataResponse } from './service';
import { accountMessages } from './messages';
import { WEB_STATUSES, type WebStatus } from './webStatus';
import { MAX_PASSWORD_LENGTH, passwordProblems } from './password';

export const STAFF_ROLES = ['reader', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Each status (SPEC 3.1's web statuses) in words, as the console shows it. */
export const APPLICATION_STATUS_LABELS: Record<WebStatus, string> = {
  started: 'In progress',
  validating: 'Has errors to fix',
  submitted: 'Submitted',
};

export const STAFF_SORTS = [
  'name',
  'email',
  'status',
  'submitted',
  'updated',
  'documents',
] as const;
export const STAFF_PAGE_SIZES = [25, 50, 100] as const;
/** Recovery codes issued at enrolment. */
export const RECOVERY_CODE_COUNT = 10;

export const staffMessages = {
  email: 'Please provide a valid email address.',
  role: 'The role must be reader or admin.',
  code: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  loginFailed: 'Incorrect email address or password.',
  codeFailed: 'That code is not right, or it was already used. Try the next code.',
  signInRequired: 'Please sign in to the staff console.',
  secondFactorRequired: 'Please finish signing in with your authenticator code.',
  forbidden: 'Your role does not allow this.',
  invitationInvalid:
    'This invitation link is invalid, used or expired. Ask an administrator for a new one.',
  invited: 'The invitation has been sent.',
  joined: 'Your password is set. Sign in to set up your authenticator app.',
  alreadyStaff: 'That address already has a staff account.',
  disabled: 'The account has been disabled.',
  noSuchStaff: 'There is no such staff member.',
  noSuchApplication: 'There is no such application.',
  noSuchDocument: 'There is no such document.',
  pdfPending: 'The application PDF is being prepared. Try again in a minute.',
  alreadyEnrolled: 'An authenticator app is already set up for this account.',
  signedOut: 'You have been signed out.',
  linkRevoked: 'The link has been revoked.',
  /** D152: an applicant's deletion request, completed by an admin. */
  accountDeleted:
    'The account and its application have been deleted; the applicant is told by e-mail.',
  noSuchDeletionRequest: 'There is no deletion request for this application.',
  noSuchLink: 'There is no such service link.',
  badFilter: 'The search or filter is not valid.',
} as const;

export const staffEmail = z
  .string(staffMessages.email)
  .check(z.maxLength(254, staffMessages.email), z.regex(EMAIL_PATTERN, staffMessages.email));
export const staffRole = z.enum(STAFF_ROLES, staffMessages.role);

/** The applicant password rules (SPEC 5.2), the same for staff. */
export const staffNewPassword = z.string(accountMessages.passwordRequired).check(
  z.maxLength(MAX_PASSWORD_LENGTH, accountMessages.passwordTooLong),
  z.superRefine((password: string, ctx) => {
    for (const label of passwordProblems(password))
      ctx.addIssue({ code: 'custom', message: label, input: password });
  }),
);

export const staffLoginBody = z.object({
  email: staffEmail,
  password: z
    .string(accountMessages.passwordRequired)
    .check(
      z.minLength(1, accountMessages.passwordRequired),
      z.maxLength(MAX_PASSWORD_LENGTH, accountMessages.passwordTooLong),
    ),
});
/** A TOTP code (6 digits) or a recovery code (10 base32 letters, dashes and spaces ignored). */
export const staffCodeBody = z.object({
  code: z
    .string(staffMessages.code)
    .check(z.regex(/^(\d{6}|[A-Za-z2-7]{5}[- ]?[A-Za-z2-7]{5})$/, staffMessages.code)),
});
export const staffInviteBody = z.object({ email: staffEmail, role: staffRole });
export const staffIdParams = z.object({ id: z.uuid(staffMessages.noSuchStaff) });
export const applicantParams = z.object({ id: z.uuid(staffMessages.noSuchApplication) });
export const documentParams = z.object({
  id: z.uuid(staffMessages.noSuchApplication),
  key: z
    .string(staffMessages.noSuchDocument)
    .check(z.regex(/^[A-Za-z0-9_.-]{1,100}$/, staffMessages.noSuchDocument)),
});
/** The name a converted document is served under: the uploaded name with `.pdf`. */
export const convertedFileName = (uploaded: string) => `${uploaded.replace(/\.[^.]*$/, '')}.pdf`;

export const linkParams = z.object({
  id: z.uuid(staffMessages.noSuchApplication),
  tokenId: z.string(staffMessages.noSuchApplication).check(z.regex(/^[A-Za-z0-9_-]{16,64}$/)),
});

/** A calendar day (no February 30th, which the database would refuse); year 1 onwards, as it counts. */
const isoDate = z.iso
  .date(staffMessages.badFilter)
  .check(z.refine((day) => !day.startsWith('0000'), staffMessages.badFilter));

/** A position in the list: the sort value and the id of a row, opaque to the client (base64url). */
const cursor = z
  .string(staffMessages.badFilter)
  .check(z.regex(/^[A-Za-z0-9_-]{1,400}$/, staffMessages.badFilter));

/**
 * A page of a console list, found by seeking (D107): the rows `after` or `before` a row's cursor,
 * or the `last` page; none of them means the first page. Pages of 25, 50 or 100 rows.
 */
const pageShape = {
  after: z.optional(cursor),
  before: z.optional(cursor),
  last: z.optional(z.enum(['1'], staffMessages.badFilter)),
  size: z.optional(
    z.coerce
      .number(staffMessages.badFilter)
      .check(
        z.refine(
          (n) => (STAFF_PAGE_SIZES as readonly number[]).includes(n),
          staffMessages.badFilter,
        ),
      ),
  ),
};

/** `GET /staff/api/applications` and the export: search, filters, sort and the page (query string). */
export const applicationQuery = z.object({
  q: z.optional(
    z.string(staffMessages.badFilter).check(
      z.maxLength(100, staffMessages.badFilter),
      // Control characters and lone surrogates are no part of a name or an address.
      z.refine((text) => !/[\p{Cc}\p{Cs}]/u.test(text), staffMessages.badFilter),
    ),
  ),
  status: z.optional(z.enum(WEB_STATUSES, staffMessages.badFilter)),
  from: z.optional(isoDate),
  to: z.optional(isoDate),
  sort: z.optional(z.enum(STAFF_SORTS, staffMessages.badFilter)),
  dir: z.optional(z.enum(['asc', 'desc'], staffMessages.badFilter)),
  ...pageShape,
});
/**
 * `GET /staff/api/export.csv`: the list's filter, and `codes=1` for systems that import the export
 * (every key as stored: codes beside their labels, every repeat's columns).
 */
export const exportQuery = z.extend(applicationQuery, {
  codes: z.optional(z.enum(['1'], staffMessages.badFilter)),
});
/** `GET /staff/api/links`: every service link of the tenant, newest first, a page at a time. */
export const linkQuery = z.object(pageShape);
export type PagePosition = z.output<typeof linkQuery>;
export type ApplicationQuery = z.output<typeof applicationQuery>;

export const staffMeResponse = z.object({
  email: z.string(),
  role: staffRole,
  /** What the sign-in still needs: nothing, enrolment of an authenticator, or a code. */
  stage: z.enum(['signed-in', 'enrol', 'verify']),
});
export type StaffMe = z.output<typeof staffMeResponse>;

export const enrolmentResponse = z.object({
  /** The otpauth:// URI, for apps that take it as a link. */
  uri: z.string(),
  /** The key in base32, for typing in by hand. */
  secret: z.string(),
  /** The QR code as an SVG document (no script), shown as an image. */
  svg: z.string(),
});
export const recoveryCodesResponse = z.object({ recovery_codes: z.array(z.string()) });

export const applicationRow = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  status: z.enum(WEB_STATUSES),
  submitted_at: z.nullable(z.string()),
  updated_at: z.string(),
  documents: z.number(),
  /** `applicationReference` of the id, as the applicant's copy shows it. */
  reference: z.string(),
});
export type ApplicationRow = z.output<typeof applicationRow>;
/** A page of a console list: its rows and where it stands in the whole. */
const pageOf = <Row extends z.core.SomeType>(row: Row) =>
  z.object({
    rows: z.array(row),
    /** How many rows the search and filters match. */
    total: z.number(),
    /** How many of them come before this page's first row (its place: "26–50 of 50,001"). */
    offset: z.number(),
    size: z.number(),
    /** The cursors of the page's first and last rows, for `before` and `after`. */
    first: z.nullable(z.string()),
    last: z.nullable(z.string()),
  });
export const applicationPage = pageOf(applicationRow);
export type ApplicationPage = z.output<typeof applicationPage>;

/**
 * One application as the console reads it: the service view's data, and whose and what it is: the
 * address, the name as the list shows it, the preferred name, the status, when it was submitted
 * and its reference (`applicationReference`).
 */
export const staffApplication = z.extend(serviceDataResponse, {
  email: z.string(),
  name: z.string(),
  preferred_name: z.nullable(z.string()),
  status: z.enum(WEB_STATUSES),
  submitted_at: z.nullable(z.string()),
  reference: z.string(),
});
export type StaffApplication = z.output<typeof staffApplication>;

export const staffMember = z.object({
  id: z.string(),
  email: z.string(),
  role: staffRole,
  state: z.enum(['invited', 'active', 'disabled']),
  created_at: z.string(),
});
export const staffList = z.object({ staff: z.array(staffMember) });

/** A service link is live until it expires or is revoked (a revoked link stays revoked). */
export const LINK_STATES = ['live', 'expired', 'revoked'] as const;
export type LinkState = (typeof LINK_STATES)[number];

export const serviceLinkRow = z.object({
  id: z.string(),
  state: z.enum(LINK_STATES),
  expires_at: z.string(),
  revoked_at: z.nullable(z.string()),
  created_at: z.string(),
  /** The staff member who minted it; null when that account is gone. */
  created_by: z.nullable(z.string()),
  /** When a reviewer last opened it; null when nobody has. */
  opened_at: z.nullable(z.string()),
});
export const serviceLinkList = z.object({ links: z.array(serviceLinkRow) });
/** A row of every link's list: the link and the application it opens. */
export const linkListRow = z.extend(serviceLinkRow, {
  applicant_id: z.string(),
  applicant_name: z.string(),
  applicant_email: z.string(),
});
export type LinkListRow = z.output<typeof linkListRow>;
export const linkPage = pageOf(linkListRow);
export type LinkPage = z.output<typeof linkPage>;
export const mintedLink = z.object({ id: z.string(), url: z.string(), expires_at: z.string() });

/** What the audit log records (server/staff/audit.ts writes them). */
export const AUDIT_ACTIONS = [
  'staff.added',
  'staff.invited',
  'staff.joined',
  'staff.enrolled',
  'staff.signed_in',
  'staff.recovery_code_used',
  'staff.password_reset',
  'staff.disabled',
  'application.list',
  'application.read',
  'application.pdf',
  'application.document',
  'application.export',
  'export.columns_chosen',
  'application.pdf_bundle',
  'link.list',
  'link.minted',
  'link.revoked',
  'account.deleted',
  'account.deletion_requested',
  'form.published',
  'institution.replaced',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Each event in words, the one table the console reads: `words` say what happened, followed by the
 * applicant's name for an event about an application ("Viewed the application of Ada Lovelace");
 * `label` names the kind of event in the audit's filter. A code without words fails typecheck.
 */
export const AUDIT_EVENT_WORDS: Record<AuditAction, { label: string; words: string }> = {
  'staff.added': { label: 'Staff added', words: 'Added a staff member from the command line' },
  'staff.invited': { label: 'Staff invited', words: 'Invited a staff member' },
  'staff.joined': { label: 'Invitation taken up', words: 'Took up the invitation' },
  'staff.enrolled': { label: 'Authenticator set up', words: 'Set up an authenticator app' },
  'staff.signed_in': { label: 'Signed in', words: 'Signed in' },
  'staff.recovery_code_used': {
    label: 'Recovery code used',
    words: 'Signed in with a recovery code',
  },
  'staff.password_reset': { label: 'Password reset', words: 'Reset their password by e-mail' },
  'staff.disabled': { label: 'Staff disabled', words: 'Disabled a staff member' },
  'application.list': {
    label: 'Applications listed',
    words: 'Listed or searched the applications',
  },
  'application.read': { label: 'Application viewed', words: 'Viewed the application of' },
  'application.pdf': { label: 'PDF downloaded', words: 'Downloaded the application PDF of' },
  'application.document': { label: 'Document opened', words: 'Opened a document of' },
  'application.export': { label: 'CSV exported', words: 'Exported the applications as CSV' },
  'export.columns_chosen': { label: 'CSV columns chosen', words: 'Chose the columns of the CSV' },
  'application.pdf_bundle': {
    label: 'PDFs downloaded',
    words: 'Downloaded the applications as one ZIP of PDFs',
  },
  'link.list': { label: 'Service links listed', words: 'Listed the service links' },
  'link.minted': { label: 'Service link made', words: 'Made a service link to the application of' },
  'link.revoked': {
    label: 'Service link revoked',
    words: 'Revoked a service link to the application of',
  },
  // The account is gone: only the fact and a keyed pseudonym of the address stay (D152).
  'account.deleted': { label: 'Account deleted', words: 'Deleted an account and its application' },
  'account.deletion_requested': {
    label: 'Deletion requested',
    words: 'Asked for the deletion of the account and application of',
  },
  // The platform's operator (`npm run tenant`, D194): the detail names the version.
  'form.published': { label: 'Form published', words: 'Published a new version of the form' },
  'institution.replaced': {
    label: 'Institution file replaced',
    words: 'Replaced the institution file (words, colours, links, alerts)',
  },
};

/** Who did it, in the audit's filter: a staff member's id, or `cli` for the command line. */
export const AUDIT_CLI_ACTOR = 'cli';

/**
 * `GET /staff/api/audit` (admins): the whole history, newest first, filtered by who, what, which
 * applicant and the days (from and to, both included, in the institution's time zone), a page at
 * a time (D107).
 */
export const auditQuery = z.object({
  who: z.optional(
    z
      .string(staffMessages.badFilter)
      .check(
        z.regex(
          /^(cli|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/,
          staffMessages.badFilter,
        ),
      ),
  ),
  what: z.optional(z.enum(AUDIT_ACTIONS, staffMessages.badFilter)),
  applicant: z.optional(z.uuid(staffMessages.badFilter)),
  from: z.optional(isoDate),
  to: z.optional(isoDate),
  ...pageShape,
});
export type AuditQuery = z.output<typeof auditQuery>;

export const auditEntry = z.object({
  id: z.string(),
  at: z.string(),
  /** The staff member's address, or `cli`. */
  actor: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  applicant_id: z.nullable(z.string()),
  /** The applicant's name as the list shows it; null without an applicant or when the account is gone. */
  applicant_name: z.nullable(z.string()),
  detail: z.nullable(z.string()),
});
export type AuditEntry = z.output<typeof auditEntry>;
export const auditPage = pageOf(auditEntry);
export type AuditPage = z.output<typeof auditPage>;

/** `GET /staff/api/versions` (admins): the tenant's published form versions, newest first. */
export const formVersions = z.object({
  versions: z.array(
    z.object({
      version: z.number(),
      published_at: z.string(),
      /** Who published it: `command line` (`npm run tenant`) or `seed` (the first start). */
      published_by: z.string(),
      /** The version applicants get now. */
      current: z.boolean(),
    }),
  ),
});
