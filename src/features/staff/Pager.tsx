/**
 * A console list's pages (D107): first, previous, next and last, found by seeking from a row (fast
 * at any depth), with the place shown as "Page 3 of 2,001 (51–75 of 50,001)".
 */
import type { PagePosition } from '#contract/staff.ts';
import styles from './staff.module.css';

type Position = Pick<PagePosition, 'after' | 'before' | 'last'>;

/** What the pager reads of a page (every console list's page has it). */
interface PageSummary {
  readonly rows: readonly unknown[];
  readonly total: number;
  readonly offset: number;
  readonly size: number;
  readonly first: string | null;
  readonly last: string | null;
}

const count = (n: number) => n.toLocaleString('en-US');

export function Pager({
  page,
  empty,
  onGo,
}: {
  page: PageSummary;
  /** The place when the list is empty ("No applications"). */
  empty: string;
  onGo: (position: Position) => void;
}) {
  const hasPrevious = page.offset > 0;
  const hasNext = page.offset + page.rows.length < page.total;
  const pages = Math.max(1, Math.ceil(page.total / page.size));
  const current = Math.min(pages, Math.floor(page.offset / page.size) + 1);
  const place =
    page.total === 0
      ? empty
      : `Page ${count(current)} of ${count(pages)} (${count(page.offset + 1)}–${count(page.offset + page.rows.length)} of ${count(page.total)})`;
  return (
    <nav className={styles.pager} aria-label="Pages">
      <button
        type="button"
        className={styles.secondary}
        disabled={!hasPrevious}
        onClick={() => onGo({})}
      >
        First page
      </button>
      <button
        type="button"
        className={styles.secondary}
        disabled={!hasPrevious || !page.first}
        onClick={() => onGo({ before: page.first ?? undefined })}
      >
        Previous page
      </button>
      <span className={styles.pagerText}>{place}</span>
      <button
        type="button"
        className={styles.secondary}
        disabled={!hasNext || !page.last}
        onClick={() => onGo({ after: page.last ?? undefined })}
      >
        Next page
      </button>
      <button
        type="button"
        className={styles.secondary}
        disabled={!hasNext}
        onClick={() => onGo({ last: '1' })}
      >
        Last page
      </button>
    </nav>
  );
}
