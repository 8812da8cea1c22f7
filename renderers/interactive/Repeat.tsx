import { useEffect, useRef } from 'react';
import type { RepeatRendererProps } from '../registry';
import { cx } from './classNames';
import { focusFirstControl } from './focus';
import { PlusIcon } from './icons';
import styles from './interactive.module.css';

/**
 * Repeated instances, each in a fieldset titled by its legend, then "Add Another" while adding is
 * offered. After a click, focus moves to the new instance (the button may vanish at the maximum).
 */
export function Repeat({ view, instances, onAddAnother }: RepeatRendererProps) {
  const list = useRef<HTMLDivElement>(null);
  const pending = useRef<number | null>(null);
  const count = instances.length;
  useEffect(() => {
    if (pending.current === null || count <= pending.current) return;
    pending.current = null;
    const fieldsets = list.current?.querySelectorAll<HTMLElement>(':scope > fieldset');
    focusFirstControl(fieldsets?.[fieldsets.length - 1] ?? null);
  }, [count]);
  return (
    <div ref={list} className={styles.repeat} data-repeat={view.id}>
      {instances.map((instance) => (
        <fieldset key={instance.number} className={styles.instance} tabIndex={-1}>
          {instance.title ? (
            <legend className={styles.instanceTitle}>{instance.title}</legend>
          ) : null}
          {instance.content}
        </fieldset>
      ))}
      {onAddAnother && view.addAnother ? (
        <button
          type="button"
          className={cx(styles.button, styles.addAnother)}
          onClick={() => {
            pending.current = count;
            onAddAnother();
          }}
        >
          <PlusIcon />
          {view.addAnother.label}
        </button>
      ) : null}
    </div>
  );
}
