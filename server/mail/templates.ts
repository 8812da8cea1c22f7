/** The product's e-mails: plain, branded with the institution's name, holding the code or link. */
import type { StaffRole } from '../../contract/staff';
import { submissionText } from '../../contract/words';
import type { InstitutionConfig } from '../../definitions';
import type { MailMessage } from './mailer';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string,
  );

export function compose(
  to: string,
  subject: string,
  paragraphs: string[],
  institution: InstitutionConfig,
): MailMessage {
  const signature = `${institution.partner_name} Office of Admission`;
  const help = `Questions? Write to ${institution.help_email} or call ${institution.phone}.`;
  const text = [...paragraphs, help, signature].join('\n\n');
  const html = [...paragraphs, help, signature]
    .map((p) => `<p>${escapeHtml(p).replaceAll('\n', '<br>')}</p>`)
    .join('\n');
  return { to, subject: `${institution.partner_name}: ${subject}`, text, html };
}

export const mails = {
  confirmationCode: (to: string, code: string, institution: InstitutionConfig) =>
    compose(
      to,
      'your confirmation code',
      [
        `Your confirmation code is ${code}.`,
        `Enter it on the Confirm Your Account page to finish creating your ${institution.application_title} account. The code is valid for 24 hours.`,
        'If you did not ask for this, you can ignore this e-mail.',
      ],
      institution,
    ),
  attemptedSignup: (to: string, institution: InstitutionConfig) =>
    compose(
      to,
      'someone tried to create an account with your address',
      [
        `Someone tried to create a new ${institution.application_title} account with this e-mail address, which already has an account.`,
        'If it was you, log in instead, or use "Forgot password?" to choose a new password. If it was not you, you can ignore this e-mail.',
      ],
      institution,
    ),
  pendingSignup: (to: string, institution: InstitutionConfig) =>
    compose(
      to,
      'someone tried to create an account with your address',
      [
        `Someone tried again to create a ${institution.application_title} account with this e-mail address, which already has an account waiting for confirmation. Nothing was changed: that account keeps the password chosen when it was created, and the confirmation code sent then still works (the Confirm Your Account page can send a new one).`,
        'If you cannot log in after confirming, use "Forgot password?" to choose a new password. If you did not start creating this account, do not enter any code: an account that is not confirmed within 24 hours can be created again.',
      ],
      institution,
    ),
  resetLink: (to: string, link: string, institution: InstitutionConfig) =>
    compose(
      to,
      'reset your password',
      [
        'Use this link to choose a new password. It works once and expires in one hour:',
        link,
        'If you did not ask for this, you can ignore this e-mail; your password stays as it is.',
      ],
      institution,
    ),
  passwordChanged: (to: string, institution: InstitutionConfig) =>
    compose(
      to,
      'your password was changed',
      [
        'The password of your account was just changed, and every session that was logged in has been logged out.',
        `If you did not do this, reset your password at once and write to ${institution.help_email}.`,
      ],
      institution,
    ),
  submitted: (to: string, reference: string, submittedAt: string, institution: InstitutionConfig) =>
    compose(
      to,
      'we received your application',
      [
        `Thank you! We received your ${institution.application_title}.`,
        `${submissionText.reference}: ${reference}\n${submissionText.submitted}: ${submittedAt}`,
        'Log back in to see the steps that complete your application, and to download a PDF copy of it.',
      ],
      institution,
    ),
  accountDeleted: (to: string, institution: InstitutionConfig) =>
    compose(
      to,
      'your account was deleted',
      [
        `Your ${institution.application_title} account has been deleted, with its answers, documents and PDF copies.`,
        `We keep only a record that an account was deleted, which does not name you. If you did not ask for this, write to ${institution.help_email}.`,
      ],
      institution,
    ),
  deletionRequested: (to: string, institution: InstitutionConfig) =>
    compose(
      to,
      'we received your request to delete your account',
      [
        `We received your request to delete your ${institution.application_title} account. Your application is submitted, so the admission office completes the deletion, keeping only what it must keep by law; we will write to you once it is done.`,
        `If you did not ask for this, write to ${institution.help_email}.`,
      ],
      institution,
    ),
  retentionReminder: (to: string, deleteOn: string, institution: InstitutionConfig) =>
    compose(
      to,
      'your unfinished application will be deleted',
      [
        `Your ${institution.application_title} was started but never submitted. Unsubmitted applications are deleted some time after their last change: yours, with its account, will be deleted on ${deleteOn}.`,
        'To keep it, log in before then; any change to it starts the time again. If you no longer need it, you can do nothing, or delete it yourself from the account menu.',
      ],
      institution,
    ),
  staffInvitation: (to: string, link: string, role: StaffRole, institution: InstitutionConfig) =>
    compose(
      to,
      'your staff console invitation',
      [
        `You have been invited to the ${institution.application_title} staff console as ${role === 'admin' ? 'an administrator' : 'a reader'}.`,
        `Open this link within 7 days to choose your password:\n${link}`,
        'You will then sign in and set up an authenticator app (a second factor). If you did not expect this, you can ignore this e-mail.',
      ],
      institution,
    ),
  staffReset: (to: string, link: string, institution: InstitutionConfig) =>
    compose(
      to,
      'reset your staff console password',
      [
        `Use this link to choose a new password for the ${institution.application_title} staff console. It works once and expires in one hour:`,
        link,
        'Your authenticator app stays set up: you will still enter a code from it when you sign in. If you did not ask for this, you can ignore this e-mail; your password stays as it is.',
      ],
      institution,
    ),
};
