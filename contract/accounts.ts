/**
 * Payloads of the account calls (SPEC 7.2, /public/*) and the card validations of SPEC 5.2.
 * `zod/mini`, like the rest of the contract (docs/decisions/ D29).
 */
import * as z from 'zod/mini';
import { EMAIL_PATTERN } from '../runtime';
import { accountMessages } from './messages';
import { MAX_PASSWORD_LENGTH, passwordProblems } from './password';

const emailWith = (message: string) =>
  z.string(message).check(z.maxLength(254, message), z.regex(EMAIL_PATTERN, message));

/** A password meeting every rule; the first broken rule is the message. Never trimmed (ASVS 6.2.8). */
const newPassword = z.string().check(
  z.maxLength(MAX_PASSWORD_LENGTH, accountMessages.passwordTooLong),
  z.superRefine((password: string, ctx) => {
    for (const label of passwordProblems(password))
      ctx.addIssue({ code: 'custom', message: label, input: password });
  }),
);

export const signupBody = z.object({
  username: emailWith(accountMessages.emailSignup),
  password: newPassword,
});
export const confirmBody = z.object({
  username: emailWith(accountMessages.emailSignup),
  code: z.string(accountMessages.code).check(z.regex(/^\d{6}$/, accountMessages.code)),
});
export const resendBody = z.object({ username: emailWith(accountMessages.resendEmail) });
export const loginBody = z.object({
  username: emailWith(accountMessages.emailLogin),
  password: z
    .string(accountMessages.passwordRequired)
    .check(
      z.minLength(1, accountMessages.passwordRequired),
      z.maxLength(MAX_PASSWORD_LENGTH, accountMessages.passwordTooLong),
    ),
});
/** DELETE /api/account (D152): the password typed again. */
export const deleteAccountBody = z.object({ password: loginBody.shape.password });
/** Whether the account is gone, or its deletion waits for an admin (a submitted application). */
export const deleteAccountResponse = z.object({
  message: z.string(),
  outcome: z.enum(['deleted', 'requested']),
});
export const forgotBody = z.object({ username: emailWith(accountMessages.emailSignup) });
export const resetBody = z
  .object({
    username: z.string().check(z.maxLength(254)),
    password: newPassword,
    confirm_password: z.string().check(z.maxLength(MAX_PASSWORD_LENGTH)),
    id: z
      .string(accountMessages.resetIdMissing)
      .check(z.minLength(1, accountMessages.resetIdMissing), z.maxLength(200)),
  })
  // zod 4 skips refinements while a key is missing unless told otherwise: check matching anyway,
  // whenever the payload is an object at all (a JSON null must be a 400, not a crash).
  .check(
    z.refine((body) => body.password === body.confirm_password, {
      message: accountMessages.passwordsMatch,
      path: ['confirm_password'],
      when: (payload) => typeof payload.value === 'object' && payload.value !== null,
    }),
  );

export type SignupBody = z.output<typeof signupBody>;
export type ConfirmBody = z.output<typeof confirmBody>;
export type LoginBody = z.output<typeof loginBody>;
export type ResetBody = z.output<typeof resetBody>;
export type DeleteAccountResponse = z.output<typeof deleteAccountResponse>;

/** Every account call answers `{ message }`. */
export const messageResponse = z.object({ message: z.string() });
/** Login answers this code when the password was right but the account still needs confirming. */
export const NOT_CONFIRMED_CODE = 'UserNotConfirmed';
