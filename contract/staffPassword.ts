/**
 * The staff console's password links (D157, D166): the invitation that sets the first password,
 * which the join page first asks about to name the account, and "Forgot password?", whose mailed
 * link sets a new one. Their tokens travel in bodies, never in a call's URL.
 */
import * as z from 'zod/mini';
import { serverMessages } from './messages';
import { staffEmail, staffMessages, staffNewPassword, staffRole } from './staff';

export const staffPasswordMessages = {
  /** The same answer whether or not the address has an account (D166). */
  forgotSent: serverMessages.forgotSent,
  resetFailed: serverMessages.resetFailed,
  resetDone:
    'Your password has been reset. Sign in with it and a code from your authenticator app.',
} as const;

/** A link's token as the server issues them (base64url), refused with the link's own message. */
const linkToken = (message: string) =>
  z.string(message).check(z.minLength(16, message), z.maxLength(200, message));

export const staffInvitationBody = z.object({
  token: linkToken(staffMessages.invitationInvalid),
});
/** Who the invitation is for (D157): only a live invitation answers, with its address and role. */
export const staffInvitationResponse = z.object({ email: z.string(), role: staffRole });
export type StaffInvitation = z.output<typeof staffInvitationResponse>;

export const staffJoinBody = z.object({
  token: linkToken(staffMessages.invitationInvalid),
  password: staffNewPassword,
});
export const staffForgotBody = z.object({ email: staffEmail });
export const staffResetBody = z.object({
  token: linkToken(staffPasswordMessages.resetFailed),
  password: staffNewPassword,
});
