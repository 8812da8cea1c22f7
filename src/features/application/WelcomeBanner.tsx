/** SPEC 2.3: the welcome banner, its four variants and its show rule. */
import { Link } from '@tanstack/react-router';
import { banner } from '../../../definitions';
import { showsWelcomeBanner } from '../../session/snapshot';
import { useApplication, useSnapshot } from './ApplicationLayout';
import styles from './application.module.css';

export function WelcomeBanner() {
  const { answers } = useApplication();
  const snapshot = useSnapshot();
  if (!showsWelcomeBanner(snapshot)) return null;
  let title: string;
  let body: React.ReactNode;
  if (snapshot.web_status === 'submitted') {
    const preferred = answers.getAnswer('preferred_name');
    const first = answers.getAnswer('first_name');
    const name =
      (typeof preferred === 'string' && preferred.trim()) ||
      (typeof first === 'string' ? first : '');
    title = banner.submitted.title(name);
    body = banner.submitted.text;
  } else if (snapshot.is_logged_in && snapshot.num_logins === 1) {
    title = banner.firstLogin.title;
    body = banner.firstLogin.text;
  } else if (snapshot.is_logged_in && snapshot.num_logins === 2) {
    title = banner.secondLogin.title;
    body = banner.secondLogin.text;
  } else {
    const o = banner.otherwise;
    title = o.title;
    body = (
      <>
        {o.before}
        <Link to="/signup" state={{ studentAnswers: answers.all() }}>
          {o.signupLink}
        </Link>
        {o.middle}
        <Link to="/login" state={{ studentAnswers: answers.all() }}>
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
