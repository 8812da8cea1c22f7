/** Small decorative icons; hidden from assistive technology (the text next to them says it all). */
import styles from './interactive.module.css';

export function ErrorIcon() {
  return (
    <svg
      className={styles.icon}
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 16 16"
      width="16"
      height="16"
    >
      <circle cx="8" cy="8" r="6.75" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <rect x="7.1" y="4" width="1.8" height="5.25" rx="0.9" fill="currentColor" />
      <circle cx="8" cy="11.6" r="1" fill="currentColor" />
    </svg>
  );
}

export function PlusIcon() {
  return (
    <svg
      className={styles.icon}
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 16 16"
      width="16"
      height="16"
    >
      <path d="M8 2v12M2 8h12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
