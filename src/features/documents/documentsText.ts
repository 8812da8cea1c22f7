/**
 * The documents feature's own words for a photo over the limit and for naming a refused file
 * (D165). They live with the feature, which loads on demand, so the first page does not carry them;
 * SPEC 5.6's sentences come from `contract/messages.ts`, the file question's from `contract/words.ts`.
 */

/**
 * Every upload error names its file (D165): SPEC 5.6's sentence, the server's or the conversion's
 * follows the name as written.
 */
export const namedFileProblem = (fileName: string, message: string): string =>
  `“${fileName}”: ${message}`;

/** D165: a PNG or JPEG photo over SPEC 5.6's limit is offered a smaller copy made in the browser. */
export const shrinkText = {
  title: 'Make a smaller copy?',
  /** `limit` is SPEC 5.6's maximum as the file sizes read ("1 MB"). */
  intro: (fileName: string, limit: string) =>
    `“${fileName}” is larger than ${limit}, the most a file can be. We can make a smaller copy of it here, on your device, and upload that instead. Check that it is still easy to read.`,
  shrinking: (fileName: string) => `Making a smaller copy of “${fileName}”…`,
  previewAlt: (fileName: string) => `The smaller copy of ${fileName}`,
  sizes: (original: string, smaller: string) => `${original} before, ${smaller} now`,
  accept: 'Upload the smaller copy',
  cancel: 'Cancel',
  /** Follows SPEC 5.6's too-large sentence when the photo could not be read or no copy fit. */
  failed:
    'No smaller copy could be made from it here: please take the photo again at a lower resolution.',
} as const;
