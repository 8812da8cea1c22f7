/** SPEC 2.4: the completion page, reached after a successful submit. */
import { useRef, type ReactNode } from 'react';
import { institution, institutionConfig } from '../../tenant/tenantData';
import { useDocumentTitle, useHeadingFocusOnArrival } from '../../chrome/screen';
import { collegeTime } from '#contract/collegeTime.ts';
import { submissionText } from '#contract/words.ts';
import { useProfile } from './api/profile';
import { WelcomeBanner } from './WelcomeBanner';
import styles from './application.module.css';

/** The completion screen's document title (SPEC 2.4 names no title; its banner thanks the applicant). */
export const COMPLETION_TITLE = 'Application Submitted';

/** `pdfLink` is the PDF copy's download link, which the router passes in (features do not import each other, D188). */
export function CompletionPage({ pdfLink }: { pdfLink: ReactNode }) {
  const { completion } = institution;
  const heading = useRef<HTMLHeadingElement>(null);
  useDocumentTitle(COMPLETION_TITLE);
  useHeadingFocusOnArrival(heading);
  return (
    <div className={`${styles.layout} ${styles.single}`}>
      <div className={styles.main}>
        <WelcomeBanner />
        {pdfLink}
        <h1 ref={heading} className={styles.pageTitle} tabIndex={-1}>
          {completion.header}
        </h1>
        <SubmissionReceipt />
        <ol className={styles.steps}>
          {completion.steps.map((step) => (
            <li key={step.title} className={styles.step}>
              <h2 className={styles.stepTitle}>{step.title}</h2>
              <p>{step.text}</p>
              <p className={styles.stepLinks}>
                {step.links.map((link) => (
                  <a key={link.href} href={link.href} target="_blank" rel="noreferrer noopener">
                    {link.label}
                    <span className="visually-hidden"> (opens in a new tab)</span>
                  </a>
                ))}
              </p>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

/**
 * What the applicant reads out on the phone, without opening the PDF: the reference and the time,
 * in the college's time zone as the receipt mail, the PDF and the console say it (D197), never the
 * browser's.
 */
export function SubmissionReceipt() {
  const submission = useProfile(true).data?.submission;
  if (!submission) return null;
  return (
    <dl className={styles.receipt}>
      <dt>{submissionText.reference}</dt>
      <dd>{submission.reference}</dd>
      <dt>{submissionText.submitted}</dt>
      <dd>
        <time dateTime={submission.submitted_at}>
          {collegeTime(submission.submitted_at, institutionConfig.time_zone)}
        </time>
      </dd>
    </dl>
  );
}
