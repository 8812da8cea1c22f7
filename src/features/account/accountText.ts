/**
 * The account cards' own words (SPEC 2.5, 8). Validation messages come from `contract/messages.ts`
 * (shared with the server); the words here are the cards' titles, labels and links.
 */

/** SPEC 8: each card's name; a failed call shows an error toast titled "<card name> Error". */
export const CARD_NAMES = {
  signup: 'Sign Up Card',
  confirm: 'Confirm Card',
  login: 'Login Card',
  forgot: 'Forgot Password Card',
  reset: 'Reset Password Card',
} as const;

export type CardKey = keyof typeof CARD_NAMES;

export function cardErrorTitle(card: CardKey): string {
  return `${CARD_NAMES[card]} Error`;
}

/** SPEC 8: a failed resend. */
export const RESEND_ERROR_TITLE = 'Resend Confirmation Code Error';

export const accountText = {
  titles: {
    signup: 'Sign Up',
    confirm: 'Confirm Your Account',
    login: 'Log In',
    forgot: 'Forgot Password',
    reset: 'Reset Password',
  },
  labels: {
    email: 'Email Address',
    password: 'Password',
    newPassword: 'New Password',
    confirmPassword: 'Confirm Password',
    code: 'Confirmation Code',
  },
  hints: {
    code: 'Enter the 6-digit code we sent to your email address.',
    confirmingFor: 'Confirming the account for',
    forgot:
      'Enter the email address of your account and we will send you a link to reset your password.',
    /** Sign-up reached from the form with answers: why the applicant is here. */
    signupFromForm:
      'Create an account to save what you entered and continue; nothing you typed is lost.',
  },
  submit: 'Submit',
  resend: 'Resend confirmation code?',
  forgotLink: 'Forgot password?',
  showPassword: 'Show password',
  hidePassword: 'Hide password',
  successToastTitle: 'Success',
  successToastLabel: 'Success Notification',
  footers: {
    signup: { question: 'Already have an account?', link: 'Log in', to: '/login' },
    confirm: { question: 'Already confirmed your account?', link: 'Log in', to: '/login' },
    login: { question: "Don't have an account?", link: 'Sign up', to: '/signup' },
    forgot: { question: 'Remembered your password?', link: 'Log in', to: '/login' },
    reset: { question: 'Remembered your password?', link: 'Log in', to: '/login' },
  },
} as const;
