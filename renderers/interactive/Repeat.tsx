import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { RepeatRemoval, RepeatRendererProps } from '../registry';
import { cx } from './classNames';
import { focusFirstControl } from './focus';
import { PlusIcon } from './icons';
import styles from './interactive.module.css';
import repeat from './repeat.module.css';

// Radix Dialog loads when a removal first asks (it stays off the first page, D29).
const loadRemoveDialog = () => import('./RemoveDialog');
const RemoveDialog = lazy(loadRemoveDialog);

/**
 * Repeated instances, each in a fieldset titled by its legend, then "Add Another" while adding is
 * offered, else a note that the maximum is reached. After a click, focus moves to the new instance.
 * An added instance can be removed (D148), after a confirmation when it holds answers; focus then
 * goes to the instance that took its place, else to "Add Another", and the removal is announced.
 */
export function Repeat({ view, instances, onAddAnother, removal }: RepeatRendererProps) {
  const list = useRef<HTMLDivElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const pending = useRef<number | null>(null);
  const removed = useRef<number | null>(null);
  const [confirming, setConfirming] = useState<{
    number: number;
    name: string;
    button: HTMLElement;
  } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const count = instances.length;
  useEffect(() => {
    const fieldsets = list.current?.querySelectorAll<HTMLElement>(':scope > fieldset');
    if (removed.current !== null) {
      const number = removed.current;
      removed.current = null;
      const last = fieldsets?.[fieldsets.length - 1] ?? null;
      (fieldsets?.[number - 1] ?? addButton.current ?? last)?.focus();
    }
    if (pending.current === null || count <= pending.current) return;
    pending.current = null;
    focusFirstControl(fieldsets?.[fieldsets.length - 1] ?? null);
  }, [count]);

  const nameOf = (number: number, title: string | null) =>
    title ?? removal?.text.untitled(number) ?? String(number);
  const remove = (number: number, name: string) => {
    if (!removal) return;
    removed.current = number;
    setAnnouncement(removal.text.removed(name));
    removal.remove(number);
  };
  const addAnother = view.addAnother;
  return (
    <div ref={list} className={styles.repeat} data-repeat={view.id}>
      {instances.map((instance) => (
        <fieldset key={instance.number} className={styles.instance} tabIndex={-1}>
          {instance.title ? (
            <legend className={styles.instanceTitle}>{instance.title}</legend>
          ) : null}
          {instance.content}
          {removal?.canRemove(instance.number) ? (
            <RemoveButton
              removal={removal}
              name={nameOf(instance.number, instance.title)}
              onRemove={(name, button) =>
                removal.answered(instance.number)
                  ? setConfirming({ number: instance.number, name, button })
                  : remove(instance.number, name)
              }
            />
          ) : null}
        </fieldset>
      ))}
      {onAddAnother && addAnother ? (
        <button
          ref={addButton}
          type="button"
          className={cx(styles.button, styles.addAnother)}
          onClick={() => {
            pending.current = count;
            onAddAnother();
          }}
        >
          <PlusIcon />
          {addAnother.label}
        </button>
      ) : null}
      {removal && addAnother && !addAnother.canAdd ? (
        <p className={repeat.note}>{removal.text.atMaximum(addAnother.max)}</p>
      ) : null}
      {removal ? (
        <p role="status" className={styles.visuallyHidden}>
          {announcement}
        </p>
      ) : null}
      {removal && confirming ? (
        <Suspense fallback={null}>
          <RemoveDialog
            text={removal.text}
            name={confirming.name}
            returnFocusTo={confirming.button}
            onCancel={() => setConfirming(null)}
            onConfirm={() => {
              setConfirming(null);
              remove(confirming.number, confirming.name);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

function RemoveButton({
  removal,
  name,
  onRemove,
}: {
  removal: RepeatRemoval;
  name: string;
  onRemove: (name: string, button: HTMLElement) => void;
}) {
  return (
    <button
      type="button"
      className={repeat.remove}
      aria-label={removal.text.removeLabel(name)}
      onPointerEnter={() => void loadRemoveDialog()}
      onFocus={() => void loadRemoveDialog()}
      onClick={(event) => onRemove(name, event.currentTarget)}
    >
      {removal.text.remove}
    </button>
  );
}
