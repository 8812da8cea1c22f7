/**
 * The account cards' own words (SPEC 2.5, 8). Validation messages come from `contract/messages.ts`
 * (shared with the server); the words here are the cards' titles, labels and links.
 */
import { chromeText } from '../../chrome/chromeText';

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

/**
 * The applicant's rights over their data (D152): the "Delete my account" dialog and the download's
 * error (the Account menu's two items are the chrome's, `chromeText.account`). The server's answers (deleted, requested, a wrong password) are its messages,
 * `contract/messages.ts`; how long a submitted application is kept is the institution's (D153).
 */
export const rightsText = {
  /** SPEC 8's "<name> Error" title of the toast when the download fails. */
  downloadError: 'Download My Data Error',
  title: 'Delete my account',
  beforeSubmission: [
    'This deletes your account and everything in it at once: your answers, your uploaded documents and the PDF copy of your application. You will be signed out.',
    `It cannot be undone. To keep a copy, choose “${chromeText.account.downloadData}” in the Account menu first.`,
  ],
  afterSubmission: (partnerName: string, years: number) => [
    `Your application has been submitted. ${partnerName} keeps submitted applications for ${years} year${years === 1 ? '' : 's'}, so your request goes to the admission office, which deletes your account and your application.`,
    'We will e-mail you once it is done. Until then you stay signed in, and you can still download your data.',
  ],
  password: 'Your password',
  passwordHint: 'Type the password you log in with, to confirm it is you.',
  deleteNow: 'Delete my account',
  sendRequest: 'Send my request',
  deleting: 'Deleting…',
  sending: 'Sending…',
  cancel: 'Cancel',
  done: 'Done',
} as const;
