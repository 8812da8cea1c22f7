/**
 * D158: the notice a Save (or a move away from a page with answers needing attention) leaves at the
 * top of the page: SPEC's saved sentence, then how many answers need attention, linked to the first
 * of them. It takes focus, so the eye, the screen reader and the keyboard all start from it.
 */
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { saveNoticeText } from '#contract/words.ts';
import { useApplication, useSessionState } from './ApplicationLayout';
import { attentionKeys } from './session/saveNotice';
import styles from './saveNotice.module.css';

export function SaveNotice({ path }: { path: string }) {
  const { definition } = useApplication();
  const notice = useSessionState((state) => state.saveNotice);
  const errors = useSessionState((state) => state.errors);
  const box = useRef<HTMLDivElement>(null);
  const shown = notice?.path === path ? notice : null;
  const tick = shown?.tick;

  useEffect(() => {
    if (tick !== undefined) box.current?.focus();
  }, [tick]);

  if (!shown) return null;
  const page = definition.pages.find((candidate) => candidate.id === shown.pageId);
  const keys = attentionKeys(definition, errors, shown.pageId);
  const where =
    page?.path === path ? saveNoticeText.thisPage : saveNoticeText.onPage(page?.title ?? '');
  return (
    <div
      ref={box}
      className={styles.notice}
      role="status"
      aria-label={saveNoticeText.label}
      data-attention={keys.length > 0 ? '' : undefined}
      tabIndex={-1}
    >
      <p className={styles.text}>
        {shown.message}
        {page && keys[0] !== undefined ? (
          <>
            {' '}
            {/* The page brings the whole question into view and focuses it (as the summary's links). */}
            <Link to={page.path} hash={keys[0]} hashScrollIntoView={false}>
              {saveNoticeText.attention(keys.length, where)}
            </Link>
          </>
        ) : null}
      </p>
    </div>
  );
}
