/** One form page (SPEC 2.3): banner, navigation, error summary, the page's questions, buttons, sidebar. */
import { useLocation } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { PageOutlet, usePageView } from '#renderers/react/index.ts';
import { arrivedFromAnotherScreen, focusIsLost, useDocumentTitle } from '../../chrome/screen';
import { ErrorSummary, ERROR_SUMMARY_ID } from './ErrorSummary';
import { OfferSidebar } from './OfferSidebar';
import { PageButtons } from './PageButtons';
import { PageNav } from './PageNav';
import { SaveNotice } from './SaveNotice';
import { WelcomeBanner } from './WelcomeBanner';
import { useApplication, useSessionState } from './ApplicationLayout';
import styles from './application.module.css';

/**
 * Brings a question (label, help, errors and control: its field frame) into view, centred when it
 * fits, and focuses its control without a second scroll.
 */
function showQuestion(control: HTMLElement): void {
  const frame = control.closest<HTMLElement>('[data-state]') ?? control;
  const fits = frame.getBoundingClientRect().height < window.innerHeight * 0.8;
  frame.scrollIntoView({ block: fits ? 'center' : 'start' });
  control.focus({ preventScroll: true });
}

export function FormPage({ pageId }: { pageId: string }) {
  const { definition, answers, takeSummaryFocus } = useApplication();
  const viewState = useSessionState((state) => state.viewState);
  const summaryFocusTick = useSessionState((state) => state.summaryFocus.tick);
  const page = usePageView(definition, pageId, answers, viewState);
  const location = useLocation();
  const { hash } = location;
  // Each following of a summary link is a navigation of its own, even to the same question.
  const navigationKey = (location.state as { __TSR_key?: string }).__TSR_key;
  const heading = useRef<HTMLHeadingElement>(null);
  const path = page?.path;
  useDocumentTitle(page?.title ?? definition.title);

  // Arrival: to the question of a summary link (/<page>#<key>), else to the summary after a submit
  // with errors, else to the heading when coming from another screen.
  const arrived = useRef(false);
  useEffect(() => {
    if (path === undefined) return;
    const fromElsewhere = !arrived.current && arrivedFromAnotherScreen();
    arrived.current = true;
    const target = hash ? document.getElementById(hash) : null;
    if (target) return showQuestion(target);
    if (takeSummaryFocus(path)) {
      const summary = document.getElementById(ERROR_SUMMARY_ID);
      if (summary) {
        summary.scrollIntoView({ block: 'start' });
        return summary.focus({ preventScroll: true });
      }
    }
    if (fromElsewhere && focusIsLost()) heading.current?.focus({ preventScroll: true });
  }, [path, hash, navigationKey, summaryFocusTick, takeSummaryFocus]);

  if (!page) return null;
  return (
    <div className={styles.layout}>
      <div className={styles.main}>
        <WelcomeBanner />
        <PageNav current={page.path} />
        <ErrorSummary />
        <SaveNotice path={page.path} />
        <h1 ref={heading} className={styles.pageTitle} tabIndex={-1}>
          {page.title}
        </h1>
        <form
          className={styles.form}
          noValidate
          onSubmit={(event) => event.preventDefault()}
          aria-labelledby={undefined}
        >
          <PageOutlet page={page} />
          <PageButtons path={page.path} />
        </form>
      </div>
      <OfferSidebar />
    </div>
  );
}
