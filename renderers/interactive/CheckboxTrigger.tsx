import type { CheckboxTriggerRendererProps } from '../registry';
import styles from './interactive.module.css';

/** A check box (drawn by the set's checkbox renderer) and the content it currently selects. */
export function CheckboxTrigger({ view, checkbox, children }: CheckboxTriggerRendererProps) {
  return (
    <div className={styles.trigger} data-state={view.checked ? 'checked' : 'unchecked'}>
      {checkbox}
      {children}
    </div>
  );
}
