import { useEffect, useRef } from 'react';
import type { ButtonTriggerRendererProps } from '../registry';
import { focusFirstControl } from './focus';
import styles from './interactive.module.css';

/** A button that reveals its content; once clicked, focus moves into what appeared. */
export function ButtonTrigger({ view, children, onReveal }: ButtonTriggerRendererProps) {
  const content = useRef<HTMLDivElement>(null);
  const clicked = useRef(false);
  useEffect(() => {
    if (!view.revealed || !clicked.current) return;
    clicked.current = false;
    focusFirstControl(content.current);
  }, [view.revealed]);
  if (!view.revealed) {
    return (
      <div className={styles.trigger} data-state="hidden">
        <button
          type="button"
          className={styles.button}
          onClick={() => {
            clicked.current = true;
            onReveal();
          }}
        >
          {view.label}
        </button>
      </div>
    );
  }
  return (
    <div ref={content} className={styles.trigger} data-state="revealed" tabIndex={-1}>
      {children}
    </div>
  );
}
