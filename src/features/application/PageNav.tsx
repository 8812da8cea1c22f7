/**
 * SPEC 2.3: the horizontal navigation, one item per form page, the active one highlighted. Logged in,
 * a click saves and validates first; anonymous with answers, it leads to /signup.
 */
import * as NavigationMenu from '@radix-ui/react-navigation-menu';
import { useApplication } from './ApplicationLayout';
import styles from './application.module.css';

export function PageNav({ current }: { current: string }) {
  const { definition, goTo, snapshot } = useApplication();
  if (snapshot.is_service_user) return null;
  return (
    <NavigationMenu.Root
      className={styles.nav}
      delayDuration={200}
      skipDelayDuration={300}
      aria-label="Application pages"
    >
      <NavigationMenu.List className={styles.navList}>
        {definition.pages.map((page, index) => (
          <NavigationMenu.Item key={page.id}>
            <NavigationMenu.Link
              className={styles.navLink}
              active={page.path === current}
              aria-current={page.path === current ? 'page' : undefined}
              href={page.path}
              onClick={(event) => {
                // A modified click opens the page elsewhere as a link does. Otherwise the link must
                // not load the page itself (a reload would resume on the last page and bounce
                // back): the application saves, validates and moves.
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                event.preventDefault();
                if (page.path !== current) void goTo(page.path);
              }}
            >
              <span className={styles.navNumber} aria-hidden="true">
                {index + 1}
              </span>
              {page.title}
            </NavigationMenu.Link>
          </NavigationMenu.Item>
        ))}
      </NavigationMenu.List>
    </NavigationMenu.Root>
  );
}
