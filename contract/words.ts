/**
 * The platform's own words on the form pages (SPEC 2.3, 2.4, 2.7, 4.4, 4.9, 8; SECURITY.md REQ-R):
 * buttons, notices, the error summary, the file, lookup and autosave texts, the anonymous welcome
 * banner. They are the same for every institution, so client and server read them from here; an
 * institution's own words come with its institution file (docs/decisions/ D143).
 */

/** The page's description for search engines and link previews (index.html). */
export const pageDescription = (partnerName: string) => `Apply to ${partnerName} online.`;

/** SPEC 2.3: the welcome banner of a visitor who is not logged in (the other variants are the institution's). */
export const anonymousBanner = {
  title: (applicationTitle: string) => `Welcome to your ${applicationTitle}!`,
  /** Rendered as: before, a "click here" link to /signup, middle, a "log back in now" link to /login, after. */
  before: 'New here? ',
  signupLink: 'Click here',
  middle: ' to create an account and save your progress. Already started? ',
  loginLink: 'Log back in now',
  after: ' to pick up where you left off.',
} as const;

/** SPEC 2.3: an institution's submitted banner title names the applicant where it says `{name}`. */
export function welcomeTitle(template: string, name: string): string {
  return template.replaceAll('{name}', name);
}

export const errorSummary = {
  title: "We're missing some information!",
  text: 'The links below show what needs to be corrected. Missing or incorrect items will be highlighted on each page; simply fix them and then resubmit your application.',
} as const;

export const buttons = {
  saveAndContinue: 'Save & Continue',
  previous: 'Previous',
  save: 'Save',
  submit: 'Submit',
} as const;

/** Toast, notification and modal texts of the form pages (SPEC 2.2, 2.7, 4.4, 4.6, 4.8, 8). */
export const notices = {
  successLabel: 'Success Notification',
  successTitle: 'Success',
  errorTitle: 'Error',
  addAnotherFailed: (buttonId: string) => `Error adding another ${buttonId}`,
  tabsFailed: (defaultTab: string) => `Error handling tabs for ${defaultTab}`,
  /** SPEC 8 names the question by its key; the applicant reads its label (docs/decisions/ D80). */
  uploadFailed: (questionLabel: string) => `Error uploading file for ${questionLabel}`,
  /** The upload-failure toast's text: SPEC 4.4's sentence, then why (docs/decisions/ D35). */
  uploadFailedWhy: (questionLabel: string, reason: string) =>
    `${notices.uploadFailed(questionLabel)}. ${reason}`,
  /** SPEC 2.7: the Delete File modal. */
  deleteFile: {
    title: 'Delete File',
    text: 'Are you sure you want to delete your file?',
    cancel: 'Cancel',
    confirm: 'Delete',
  },
  /** SPEC 2.7, 4.6: a tab switch refused while a file is on its way. */
  uploadInProgress: {
    title: 'File Upload in Progress',
    text: 'Please wait until the file upload has completed.',
    close: 'OK',
  },
  summaryNoPage: 'This answer belongs to no page of the application.',
  /** SPEC 2.4, 4.5, 8: the PDF copy's download link on the completion page. */
  pdfDownload: {
    link: 'Download a PDF copy of your application',
    preparing: 'Preparing your PDF copy…',
    retry: 'Try the PDF copy again',
    failed: 'Error downloading PDF copy of your application.',
  },
} as const;

/**
 * The file question's words (SPEC 4.4; docs/decisions/ D35). The app hands them to the renderer
 * through its DocumentSource, as the lookup texts go through the LookupSource.
 */
export const documentText = {
  anonymous: 'This question can be finished once you have created an account.',
  choose: 'Choose file',
  delete: 'Delete',
  deleteLabel: (fileName: string) => `Delete ${fileName}`,
  loading: 'Checking for your file…',
  uploading: (fileName: string) => `Uploading ${fileName}…`,
  converting: (fileName: string) =>
    fileName ? `Converting ${fileName}…` : 'Converting your file…',
} as const;

/** SECURITY.md REQ-R-1 and REQ-R-2: the autosave state and the conflict choice. */
export const autosaveText = {
  saved: 'Saved',
  saving: 'Saving…',
  retrying: 'Not saved — retrying',
  conflictTitle: 'Your answers were changed elsewhere',
  conflictIntro:
    'These answers were changed in another tab or on another device after this page loaded. Choose which version to keep for each one.',
  mine: 'This tab',
  theirs: 'The other version',
  keepMine: 'Keep mine',
  keepTheirs: 'Keep theirs',
  empty: '(empty)',
} as const;

/**
 * After Save, or Save & Continue away from a page with answers needing attention (D158): SPEC's
 * saved sentence is the server's (`serverMessages.saved`); this follows it, naming the page.
 */
export const saveNoticeText = {
  label: 'Save notice',
  attention: (count: number, where: string) =>
    count === 1
      ? `1 answer ${where} needs attention.`
      : `${count} answers ${where} need attention.`,
  thisPage: 'on this page',
  onPage: (pageTitle: string) => `on ${pageTitle}`,
} as const;

/** Lookup questions (SPEC 4.9). */
export const lookupText = {
  use: (content: string) => `Use: ${content}`,
  newEntryNote: 'Enter your school information below.',
  clear: 'Clear',
} as const;

/** Removing an added parent, activity, honor… (D148); `name` is the instance's title. */
export const repeatText = {
  remove: 'Remove',
  removeLabel: (name: string) => `Remove ${name}`,
  confirmTitle: (name: string) => `Remove ${name}?`,
  confirmText:
    'Its answers will be cleared, and any that come after it move up one place. This cannot be undone.',
  cancel: 'Cancel',
  confirm: 'Remove',
  removed: (name: string) => `${name} removed.`,
  atMaximum: (max: number) =>
    `You have added the most this application takes (${max}). Remove one to add a different one.`,
  untitled: (number: number) => `Entry ${number}`,
  removeFailed: 'Your removal could not be saved. Please try again.',
} as const;

/** After submitting (completion page, receipt mail): what the applicant reads out on the phone. */
export const submissionText = {
  reference: 'Application reference',
  submitted: 'Submitted',
} as const;
