import { useId } from 'react';
import type { ContainerProps } from '../registry';
import type { SectionView } from '../../runtime';
import styles from './interactive.module.css';

/** A titled region; the id of its heading is generated (a section may repeat in every instance). */
export function Section({ view, children }: ContainerProps<SectionView>) {
  const titleId = useId();
  return (
    <section className={styles.section} aria-labelledby={view.title ? titleId : undefined}>
      {view.title ? (
        <h2 id={titleId} className={styles.sectionTitle}>
          {view.title}
        </h2>
      ) : null}
      {view.description ? <p className={styles.description}>{view.description}</p> : null}
      {children}
    </section>
  );
}
