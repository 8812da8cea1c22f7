/**
 * SPEC 2.3: the horizontal navigation, one item per form page, the active one highlighted. Logged in,
 * a click saves and validates first; anonymous with answers, it leads to /signup. Plain links in a
 * list (no menu widget: nothing opens), so Tab reaches each and a modified click opens the page
 * elsewhere as a link does.
 */
import { useApplication, useSnapshot } from './ApplicationLayout';
import styles from './application.module.css';

export function PageNav({ current }: { current: string }) {
  const { definition, goTo } = useApplication();
  const snapshot = useSnapshot();
  if (snapshot.is_service_user) return null;
  return (
    <nav className={styles.nav} aria-label="Application pages">
      <ul className={styles.navList}>
        {definition.pages.map((page, index) => (
          <li key={page.id}>
            <a
              className={styles.navLink}
              data-active={page.path === current ? '' : undefined}
              aria-current={page.path === current ? 'page' : undefined}
              href={page.path}
              onClick={(event) => {
                // Otherwise the link must not load the page itself (a reload would resume on the
                // last page and bounce back): the application saves, validates and moves.
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                event.preventDefault();
                if (page.path !== current) void goTo(page.path);
              }}
            >
              <span className={styles.navNumber} aria-hidden="true">
                {index + 1}
              </span>
              {page.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
