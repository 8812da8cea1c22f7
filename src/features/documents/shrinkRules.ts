/**
 * D165: which chosen files are offered a smaller copy, what the copy aims for and what it is called.
 * Pure, so the rules read in one place; ./shrinkImage.ts makes the copy.
 */
import { MAX_FILE_BYTES, documentMessages, fileProblem, type FileFacts } from '#contract';

/** The extensions of SPEC 5.6 a browser can draw on a canvas and encode again. */
const PHOTO_EXTENSIONS: readonly string[] = ['.png', '.jpeg', '.jpg'];
/** The copy is always a JPEG: a photo of a page is many times smaller as a JPEG than as a PNG. */
export const SHRUNK_TYPE = 'image/jpeg';
const SHRUNK_EXTENSION = '.jpg';
/** Bytes in the library's "MB". */
const MEBIBYTE = 1024 * 1024;

const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot).toLowerCase() : '';
};

/** The copy's name: the photo's, ending in .jpg (the server checks the bytes match the name). */
export function shrunkName(name: string): string {
  const dot = name.lastIndexOf('.');
  return `${dot > 0 ? name.slice(0, dot) : name}${SHRUNK_EXTENSION}`;
}

/**
 * A single PNG or JPEG refused for its size alone is offered a smaller copy, provided the copy would
 * pass every other check of SPEC 5.6 (its name). Any other file over the limit is refused as before.
 */
export function offersShrink(file: FileFacts, count = 1): boolean {
  return (
    count === 1 &&
    fileProblem(file, count) === documentMessages.tooLarge &&
    PHOTO_EXTENSIONS.includes(extensionOf(file.name)) &&
    fileProblem({ name: shrunkName(file.name), size: 1 }) === null
  );
}

/**
 * The options of browser-image-compression: at most SPEC 5.6's limit (derived, never copied), a
 * JPEG, on the main thread (the library's web worker is a blob: script that imports the library
 * from a CDN, which our CSP refuses), EXIF not carried over.
 */
export const shrinkOptions = {
  maxSizeMB: MAX_FILE_BYTES / MEBIBYTE,
  /** 2400 px on the long side: a full page still reads at about 200 dpi. */
  maxWidthOrHeight: 2400,
  /** The first try; the library then lowers quality and size by 5 % a step until the copy fits. */
  initialQuality: 0.85,
  fileType: SHRUNK_TYPE,
  useWebWorker: false,
  preserveExif: false,
} as const;

/** The copy is only offered when it truly fits: the library may give up above the target. */
export const fitsLimit = (file: FileFacts): boolean => file.size > 0 && file.size <= MAX_FILE_BYTES;
