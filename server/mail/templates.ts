/** The product's e-mails: plain, branded with the institution's name, holding the code or link. */
import type { StaffRole } from '../../contract/staff';
import { submissionText } from '../../contract/words';
import type { InstitutionConfig } from '../../definitions';
import type { InstitutionFile } from '../../definitions/institutionFile';
import type { MailMessage } from './mailer';

/** The college a mail speaks for (D145): its configuration, its completion steps, its own origin. */
export interface MailCollege {
  readonly config: InstitutionConfig;
  readonly completion: InstitutionFile['completion'];
  /** Where its links lead: its own host (tenantOrigin, D196). */
  readonly origin: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string,
  );

/** A paragraph: plain text (escaped into the HTML part), or its text and its HTML apart. */
type Paragraph = string | { readonly text: string; readonly html: string };

const htmlOf = (paragraph: Paragraph) =>
  typeof paragraph === 'string'
    ? `<p>${escapeHtml(paragraph).replaceAll('\n', '<br>')}</p>`
    : paragraph.html;

const anchor = (href: string, label = href) =>
  `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;

/** A sentence and the link it leads to, on a line of its own. */
const linked = (sentence: string, href: string): Paragraph => ({
  text: `${sentence}\n${href}`,
  html: `<p>${escapeHtml(sentence)}<br>${anchor(href)}</p>`,
});

/** The college's completion steps (SPEC 2.4), numbered, each with its links. */
function completionSteps(steps: MailCollege['completion']['steps']): Paragraph {
  const text = steps.map((step, index) =>
    [
      `${index + 1}. ${step.title}`,
      step.text,
      ...step.links.map((link) => `${link.label}: ${link.href}`),
    ].join('\n'),
  );
  const html = steps.map((step) => {
    const links = step.links.map((link) => anchor(link.href, link.label)).join('<br>');
    return `<li><p><strong>${escapeHtml(step.title)}</strong><br>${escapeHtml(step.text)}</p>${links ? `<p>${links}</p>` : ''}</li>`;
  });
  return { text: text.join('\n\n'), html: `<ol>\n${html.join('\n')}\n</ol>` };
}

export function compose(
  to: string,
  subject: string,
  paragraphs: Paragraph[],
  { config }: MailCollege,
): MailMessage {
  const signature = `${config.partner_name} Office of Admission`;
  const help = `Questions? Write to ${config.help_email} or call ${config.phone}.`;
  const all = [...paragraphs, help, signature];
  const text = all.map((p) => (typeof p === 'string' ? p : p.text)).join('\n\n');
  const html = all.map(htmlOf).join('\n');
  return { to, subject: `${config.partner_name}: ${subject}`, text, html };
}

export const mails = {
  confirmationCode: (to: string, code: string, college: MailCollege) =>
    compose(
      to,
      'your confirmation code',
      [
        `Your confirmation code is ${code}.`,
        `Enter it on the Confirm Your Account page to finish creating your ${college.config.application_title} account. The code is valid for 24 hours.`,
        'If you did not ask for this, you can ignore this e-mail.',
      ],
      college,
    ),
  attemptedSignup: (to: string, college: MailCollege) =>
    compose(
      to,
      'someone tried to create an account with your address',
      [
        `Someone tried to create a new ${college.config.application_title} account with this e-mail address, which already has an account.`,
        'If it was you, log in instead, or use "Forgot password?" to choose a new password. If it was not you, you can ignore this e-mail.',
      ],
      college,
    ),
  pendingSignup: (to: string, college: MailCollege) =>
    compose(
      to,
      'someone tried to create an account with your address',
      [
        `Someone tried again to create a ${college.config.application_title} account with this e-mail address, which already has an account waiting for confirmation. Nothing was changed: that account keeps the password chosen when it was created, and the confirmation code sent then still works (the Confirm Your Account page can send a new one).`,
        'If you cannot log in after confirming, use "Forgot password?" to choose a new password. If you did not start creating this account, do not enter any code: an account that is not confirmed within 24 hours can be created again.',
      ],
      college,
    ),
  resetLink: (to: string, link: string, college: MailCollege) =>
    compose(
      to,
      'reset your password',
      [
        'Use this link to choose a new password. It works once and expires in one hour:',
        link,
        'If you did not ask for this, you can ignore this e-mail; your password stays as it is.',
      ],
      college,
    ),
  passwordChanged: (to: string, college: MailCollege) =>
    compose(
      to,
      'your password was changed',
      [
        'The password of your account was just changed, and every session that was logged in has been logged out.',
        `If you did not do this, reset your password at once and write to ${college.config.help_email}.`,
      ],
      college,
    ),
  /**
   * The receipt (D196): the reference and time as the completion page shows them, the college's
   * completion steps, and a link to the completion page on the college's own host.
   */
  submitted: (to: string, reference: string, submittedAt: string, college: MailCollege) =>
    compose(
      to,
      'we received your application',
      [
        `Thank you! We received your ${college.config.application_title}.`,
        `${submissionText.reference}: ${reference}\n${submissionText.submitted}: ${submittedAt}`,
        college.completion.header,
        ...(college.completion.steps.length > 0 ? [completionSteps(college.completion.steps)] : []),
        linked(
          'Log back in to see these steps again and to download a PDF copy of your application:',
          `${college.origin}/completion`,
        ),
      ],
      college,
    ),
  accountDeleted: (to: string, college: MailCollege) =>
    compose(
      to,
      'your account was deleted',
      [
        `Your ${college.config.application_title} account has been deleted, with its answers, documents and PDF copies.`,
        `We keep only a record that an account was deleted, which does not name you. If you did not ask for this, write to ${college.config.help_email}.`,
      ],
      college,
    ),
  deletionRequested: (to: string, college: MailCollege) =>
    compose(
      to,
      'we received your request to delete your account',
      [
        `We received your request to delete your ${college.config.application_title} account. Your application is submitted, so the admission office completes the deletion, keeping only what it must keep by law; we will write to you once it is done.`,
        `If you did not ask for this, write to ${college.config.help_email}.`,
      ],
      college,
    ),
  retentionReminder: (to: string, deleteOn: string, college: MailCollege) =>
    compose(
      to,
      'your unfinished application will be deleted',
      [
        `Your ${college.config.application_title} was started but never submitted. Unsubmitted applications are deleted some time after their last change: yours, with its account, will be deleted on ${deleteOn}.`,
        'To keep it, log in before then; any change to it starts the time again. If you no longer need it, you can do nothing, or delete it yourself from the account menu.',
      ],
      college,
    ),
  staffInvitation: (to: string, link: string, role: StaffRole, college: MailCollege) =>
    compose(
      to,
      'your staff console invitation',
      [
        `You have been invited to the ${college.config.application_title} staff console as ${role === 'admin' ? 'an administrator' : 'a reader'}.`,
        `Open this link within 7 days to choose your password:\n${link}`,
        'You will then sign in and set up an authenticator app (a second factor). If you did not expect this, you can ignore this e-mail.',
      ],
      college,
    ),
  staffReset: (to: string, link: string, college: MailCollege) =>
    compose(
      to,
      'reset your staff console password',
      [
        `Use this link to choose a new password for the ${college.config.application_title} staff console. It works once and expires in one hour:`,
        link,
        'Your authenticator app stays set up: you will still enter a code from it when you sign in. If you did not ask for this, you can ignore this e-mail; your password stays as it is.',
      ],
      college,
    ),
};
