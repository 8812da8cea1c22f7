/**
 * The institution's page content (SPEC 1, 2.3, 2.4): the offer, the welcome banner's variants, the
 * error summary and the completion steps. Components show these; they hold no text of their own.
 */
import { institutionConfig } from './config';

export const offer = {
  heading: 'Apply Now to Enjoy:',
  items: [
    'No application fee',
    'No essay requirement',
    'Automatic scholarship consideration',
    'Optional test-score submission',
    'A three-day admission decision',
  ],
} as const;

export const banner = {
  submitted: {
    title: (name: string) => `Thanks, ${name}!`,
    text: 'Congratulations on completing the online portion of your application! Take these last steps to finish up your application.',
  },
  firstLogin: {
    title: 'Welcome!',
    text: `${offer.items.slice(0, 3).join(', ')}, and more. We're excited to learn more about you!`,
  },
  secondLogin: {
    title: 'Welcome Back!',
    text: 'Finish and submit your application now so that you are automatically considered for scholarships.',
  },
  otherwise: {
    title: `Welcome to your ${institutionConfig.application_title}!`,
    /** Rendered as: before, a "click here" link to /signup, middle, a "log back in now" link to /login, after. */
    before: 'New here? ',
    signupLink: 'Click here',
    middle: ' to create an account and save your progress. Already started? ',
    loginLink: 'Log back in now',
    after: ' to pick up where you left off.',
  },
} as const;

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

export const completion = {
  header: 'To complete your application, you must take the following steps.',
  steps: [
    {
      title: 'Send your high school transcript',
      text: 'Ask your school to send your official transcript through our transcript service.',
      link: { label: 'Transcript service', href: institutionConfig.links.transcript_service },
    },
    {
      title: 'Send your test scores (optional)',
      text: `Test scores are optional. To send them, use ACT code ${institutionConfig.codes.act}, SAT code ${institutionConfig.codes.sat}, or the CLT.`,
      links: [
        { label: 'ACT', href: institutionConfig.links.act },
        { label: 'SAT', href: institutionConfig.links.sat },
        { label: 'CLT', href: institutionConfig.links.clt },
      ],
    },
    {
      title: 'Apply for financial aid',
      text: `Complete the Free Application for Federal Student Aid (FAFSA) with our school code ${institutionConfig.codes.fafsa}.`,
      links: [
        { label: 'FAFSA', href: institutionConfig.links.fafsa },
        {
          label: 'Financial aid at ' + institutionConfig.partner_name,
          href: institutionConfig.links.financial_aid,
        },
      ],
    },
    {
      title: `Explore ${institutionConfig.partner_name}`,
      text: 'Plan a visit, meet your admission counselor and see what campus life is like.',
      link: {
        label: `Explore ${institutionConfig.partner_name}`,
        href: institutionConfig.links.explore,
      },
    },
  ],
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
 * SPEC 2.7: a notice shown only from `start` (inclusive) until `end` (exclusive), for example a
 * deadline reminder. ISO instants; none configured means none shown.
 */
export const datedAlerts: readonly {
  readonly id: string;
  readonly start: string;
  readonly end: string;
  readonly text: string;
}[] = [
  {
    id: 'regular-decision-deadline',
    start: '2026-11-15T00:00:00-05:00',
    end: '2027-01-16T00:00:00-05:00',
    text: 'Regular decision deadline: submit your application by January 15 to be considered for our first round of scholarships.',
  },
];

/** Lookup questions (SPEC 4.9). */
export const lookupText = {
  use: (content: string) => `Use: ${content}`,
  newEntryNote: 'Enter your school information below.',
  clear: 'Clear',
} as const;
