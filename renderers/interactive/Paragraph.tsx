import type { ParagraphView } from '../../runtime';
import styles from './interactive.module.css';

export function Paragraph({ view }: { readonly view: ParagraphView }) {
  return <p className={styles.paragraph}>{view.text}</p>;
}
