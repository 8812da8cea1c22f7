/**
 * D165: a smaller JPEG copy of a photo, made in the browser by browser-image-compression (imported
 * only when a photo is too large, so neither the first page nor the documents chunk carries it). The
 * copy is drawn through a canvas, so none of the photo's EXIF (camera, GPS position) comes along.
 */
import { SHRUNK_TYPE, fitsLimit, shrinkOptions, shrunkName } from './shrinkRules';

export class ShrinkFailed extends Error {}

export async function shrinkImage(photo: File, signal?: AbortSignal): Promise<File> {
  let encoded: Blob;
  try {
    const { default: imageCompression } = await import('browser-image-compression');
    encoded = await imageCompression(photo, { ...shrinkOptions, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    // Not a picture the browser can read (a .png name on other bytes), or the canvas failed.
    throw new ShrinkFailed(error instanceof Error ? error.message : String(error));
  }
  const copy = new File([encoded], shrunkName(photo.name), {
    type: SHRUNK_TYPE,
    lastModified: photo.lastModified,
  });
  if (!fitsLimit(copy)) throw new ShrinkFailed(`${copy.size} bytes is over the limit`);
  return copy;
}

/** The copy as a data: URL for its preview (the CSP allows data: images, not blob: ones). */
export function previewUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}
