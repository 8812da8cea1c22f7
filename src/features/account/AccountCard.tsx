/**
 * The shell of every account card (SPEC 2.5): the title, a form validated by the card (`noValidate`),
 * a Submit button with a loading state while the call is pending, and footer text made of a
 * question and a link that carries the anonymous answers along.
 */
import { Link } from '@tanstack/react-router';
import { useId, useRef } from 'react';
import { useDocumentTitle, useHeadingFocusOnArrival } from '../../chrome/screen';
import type { ReactNode, RefObject } from 'react';
import type { StudentAnswers } from '../../session/navigationState';
import styles from './account.module.css';
import { accountText } from './accountText';

export interface AccountCardFooter {
  question: string;
  link: string;
  to: '/login' | '/signup';
}

export interface AccountCardProps {
  title: string;
  /** Called on submit (the browser's own validation is off); the card validates and calls. */
  onSubmit: () => void;
  /** True while the call is pending: the Submit button shows a spinner and is disabled. */
  pending: boolean;
  footer: AccountCardFooter;
  /** Carried by the footer link's navigation state. */
  studentAnswers: StudentAnswers | undefined;
  /** D159: the form page the applicant is heading to, carried by the footer link too. */
  next?: string;
  formRef?: RefObject<HTMLFormElement | null>;
  /** Shown between the title and the form: messages, hints. */
  intro?: ReactNode;
  /** The fields. */
  children: ReactNode;
  /** Links and link-buttons shown under the fields, before Submit. */
  actions?: ReactNode;
}

export function AccountCard({
  title,
  onSubmit,
  pending,
  footer,
  studentAnswers,
  next,
  formRef,
  intro,
  children,
  actions,
}: AccountCardProps) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useDocumentTitle(title);
  useHeadingFocusOnArrival(heading);
  return (
    <section className={styles.card} aria-labelledby={titleId}>
      <h1 id={titleId} ref={heading} className={styles.title} tabIndex={-1}>
        {title}
      </h1>
      {intro}
      <form
        ref={formRef}
        className={styles.form}
        noValidate
        aria-labelledby={titleId}
        onSubmit={(event) => {
          event.preventDefault();
          if (!pending) onSubmit();
        }}
      >
        {children}
        {actions ? <div className={styles.actions}>{actions}</div> : null}
        <button type="submit" className={styles.submit} disabled={pending} aria-busy={pending}>
          {pending ? <span className={styles.spinner} aria-hidden="true" /> : null}
          {accountText.submit}
        </button>
      </form>
      <p className={styles.footer}>
        {footer.question}{' '}
        <Link
          to={footer.to}
          search={{ next }}
          state={{ studentAnswers }}
          className={styles.footerLink}
        >
          {footer.link}
        </Link>
      </p>
    </section>
  );
}
