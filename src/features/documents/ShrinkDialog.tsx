/**
 * D165: the offer of a smaller copy of a photo over SPEC 5.6's limit. Once open it makes the copy
 * (./shrinkImage.ts), then shows it with its size: "Upload the smaller copy" hands it on, Cancel (or
 * Escape) drops both, and a photo no copy can be made of is handed back to be refused.
 */
import { useEffect, useRef, useState } from 'react';
import { MAX_FILE_BYTES } from '#contract';
import { formatFileSize } from '#renderers/react/index.ts';
import { DocumentDialog } from './DocumentDialog';
import { focusQuestion, focusQuestionFrame } from './DocumentDialogs';
import { shrinkText } from './documentsText';
import styles from './documents.module.css';
import { previewUrl, shrinkImage } from './shrinkImage';

export interface ShrinkOffer {
  /** The question the photo was chosen for. */
  readonly key: string;
  readonly photo: File;
}

interface Copy {
  readonly file: File;
  /** The copy as a data: URL, for the preview. */
  readonly url: string;
}

export function ShrinkDialog({
  offer,
  onAccept,
  onCancel,
  onFailed,
}: {
  /** The photo on offer (null: closed). */
  readonly offer: ShrinkOffer | null;
  readonly onAccept: (offer: ShrinkOffer, copy: File) => void;
  readonly onCancel: () => void;
  /** No copy could be made, or none fits: the photo is refused as too large. */
  readonly onFailed: (offer: ShrinkOffer) => void;
}) {
  const [copy, setCopy] = useState<Copy | null>(null);
  // Still shown while the dialog animates out.
  const last = useRef<ShrinkOffer | null>(null);
  if (offer) last.current = offer;
  // How the offer closed: accepted, focus goes to the question that is uploading; else to its button.
  const accepted = useRef(false);

  useEffect(() => {
    setCopy(null);
    if (!offer) return;
    accepted.current = false;
    const controller = new AbortController();
    void (async () => {
      try {
        const file = await shrinkImage(offer.photo, controller.signal);
        const url = await previewUrl(file);
        if (!controller.signal.aborted) setCopy({ file, url });
      } catch {
        if (!controller.signal.aborted) onFailed(offer);
      }
    })();
    return () => controller.abort();
  }, [offer, onFailed]);

  const shown = offer ?? last.current;
  const name = shown?.photo.name ?? '';
  const limit = formatFileSize(MAX_FILE_BYTES);
  return (
    <DocumentDialog
      open={offer !== null}
      title={shrinkText.title}
      text={shrinkText.intro(name, limit)}
      className={styles.wideDialog}
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      onCloseAutoFocus={(event) =>
        (accepted.current ? focusQuestionFrame : focusQuestion)(shown?.key ?? null)(event)
      }
      body={
        <div role="status" className={styles.shrinkStatus}>
          {copy && shown ? (
            <figure className={styles.preview}>
              <img
                className={styles.previewImage}
                src={copy.url}
                alt={shrinkText.previewAlt(name)}
              />
              <figcaption>
                {shrinkText.sizes(formatFileSize(shown.photo.size), formatFileSize(copy.file.size))}
              </figcaption>
            </figure>
          ) : (
            <p className={styles.shrinking}>
              <span className={styles.spinner} aria-hidden="true" />
              {shrinkText.shrinking(name)}
            </p>
          )}
        </div>
      }
    >
      <button type="button" className={styles.secondary} onClick={onCancel}>
        {shrinkText.cancel}
      </button>
      <button
        type="button"
        className={styles.primary}
        disabled={!copy}
        onClick={() => {
          if (!offer || !copy) return;
          accepted.current = true;
          onAccept(offer, copy.file);
        }}
      >
        {shrinkText.accept}
      </button>
    </DocumentDialog>
  );
}
