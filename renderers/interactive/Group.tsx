import type { GroupView } from '../../runtime';
import type { ContainerProps } from '../registry';
import styles from './interactive.module.css';

/** The winning case of a mutually exclusive group. */
export function Group({ view, children }: ContainerProps<GroupView>) {
  return (
    <div className={styles.group} data-group={view.id}>
      {children}
    </div>
  );
}
