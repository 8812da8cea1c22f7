/** One form page (SPEC 2.3): banner, navigation, error summary, the page's questions, buttons, sidebar. */
import { useLocation } from '@tanstack/react-router';
import { useEffect } from 'react';
import { PageOutlet, usePageView } from '../../../renderers/react';
import { ErrorSummary } from './ErrorSummary';
import { OfferSidebar } from './OfferSidebar';
import { PageButtons } from './PageButtons';
import { PageNav } from './PageNav';
import { WelcomeBanner } from './WelcomeBanner';
import { useApplication } from './ApplicationLayout';
import styles from './application.module.css';

export function FormPage({ pageId }: { pageId: string }) {
  const { definition, answers, viewState } = useApplication();
  const page = usePageView(definition, pageId, answers, viewState);
  const { hash } = useLocation();

  // Links of the error summary go to /<page>#<key>: scroll to the question and focus it.
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(hash);
    if (target) {
      target.scrollIntoView({ block: 'center' });
      target.focus({ preventScroll: true });
    }
  }, [hash, page]);

  if (!page) return null;
  return (
    <div className={styles.layout}>
      <div className={styles.main}>
        <WelcomeBanner />
        <PageNav current={page.path} />
        <ErrorSummary />
        <h1 className={styles.pageTitle}>{page.title}</h1>
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
