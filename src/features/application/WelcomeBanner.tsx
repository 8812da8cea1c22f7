/** SPEC 2.3: the welcome banner, its four variants and its show rule. */
import { Link, useRouterState } from '@tanstack/react-router';
import { anonymousBanner, welcomeTitle } from '#contract/words.ts';
import { applicationDefinition, institution, institutionConfig } from '../../tenant/tenantData';
import { returnHere } from '../../session/returnTo';
import { showsWelcomeBanner } from '../../session/snapshot';
import { useApplication, useSnapshot } from './ApplicationLayout';
import styles from './application.module.css';

export function WelcomeBanner() {
  const { answers } = useApplication();
  const snapshot = useSnapshot();
  const location = useRouterState({ select: (s) => s.location });
  if (!showsWelcomeBanner(snapshot)) return null;
  const { welcome } = institution;
  let title: string;
  let body: React.ReactNode;
  if (snapshot.web_status === 'submitted') {
    const preferred = answers.getAnswer('preferred_name');
    const first = answers.getAnswer('first_name');
    const name =
      (typeof preferred === 'string' && preferred.trim()) ||
      (typeof first === 'string' ? first : '');
    title = welcomeTitle(welcome.submitted.title, name);
    body = welcome.submitted.text;
  } else if (snapshot.is_logged_in && snapshot.num_logins === 1) {
    title = welcome.firstLogin.title;
    body = welcome.firstLogin.text;
  } else if (snapshot.is_logged_in && snapshot.num_logins === 2) {
    title = welcome.secondLogin.title;
    body = welcome.secondLogin.text;
  } else {
    const o = anonymousBanner;
    // D159, D165: after sign-up or login the applicant comes back to this page.
    const search = returnHere(applicationDefinition, location);
    title = o.title(institutionConfig.application_title);
    body = (
      <>
        {o.before}
        <Link to="/signup" search={search} state={{ studentAnswers: answers.all() }}>
          {o.signupLink}
        </Link>
        {o.middle}
        <Link to="/login" search={search} state={{ studentAnswers: answers.all() }}>
          {o.loginLink}
        </Link>
        {o.after}
      </>
    );
  }
  return (
    <section className={styles.banner} aria-labelledby="welcome-banner-title">
      <h2 id="welcome-banner-title" className={styles.bannerTitle}>
        {title}
      </h2>
      <p className={styles.bannerText}>{body}</p>
    </section>
  );
}
