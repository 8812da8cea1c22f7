/** Payloads of the account calls (SPEC 7.2, /public/*) and the card validations of SPEC 5.2. */
import { z } from 'zod';
import { EMAIL_PATTERN } from '../runtime';
import { accountMessages } from './messages';
import { MAX_PASSWORD_LENGTH, passwordProblems } from './password';

const emailWith = (message: string) => z.string().max(254, message).regex(EMAIL_PATTERN, message);

/** A password meeting every rule; the first broken rule is the message. Never trimmed (ASVS 6.2.8). */
const newPassword = z
  .string()
  .max(MAX_PASSWORD_LENGTH, accountMessages.passwordTooLong)
  .superRefine((password, ctx) => {
    for (const label of passwordProblems(password))
      ctx.addIssue({ code: 'custom', message: label });
  });

export const signupBody = z.object({
  username: emailWith(accountMessages.emailSignup),
  password: newPassword,
});
export const confirmBody = z.object({
  username: emailWith(accountMessages.emailSignup),
  code: z.string().regex(/^\d{6}$/, accountMessages.code),
});
export const resendBody = z.object({ username: emailWith(accountMessages.resendEmail) });
export const loginBody = z.object({
  username: emailWith(accountMessages.emailLogin),
  password: z
    .string()
    .min(1, accountMessages.passwordRequired)
    .max(MAX_PASSWORD_LENGTH, accountMessages.passwordTooLong),
});
export const forgotBody = z.object({ username: emailWith(accountMessages.emailSignup) });
export const resetBody = z
  .object({
    username: z.string().max(254),
    password: newPassword,
    confirm_password: z.string().max(MAX_PASSWORD_LENGTH),
    id: z.string().min(1, accountMessages.resetIdMissing).max(200),
  })
  // zod 4 skips refinements while a key is missing unless told otherwise: check matching anyway,
  // whenever the payload is an object at all (a JSON null must be a 400, not a crash).
  .refine((body) => body.password === body.confirm_password, {
    message: accountMessages.passwordsMatch,
    path: ['confirm_password'],
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  });

export type SignupBody = z.infer<typeof signupBody>;
export type ConfirmBody = z.infer<typeof confirmBody>;
export type LoginBody = z.infer<typeof loginBody>;
export type ResetBody = z.infer<typeof resetBody>;

/** Every account call answers `{ message }`. */
export const messageResponse = z.object({ message: z.string() });
/** Login answers this code when the password was right but the account still needs confirming. */
export const NOT_CONFIRMED_CODE = 'UserNotConfirmed';
