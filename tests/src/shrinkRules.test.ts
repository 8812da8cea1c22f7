/**
 * D165: which chosen files are offered a smaller copy, what the copy aims for and is called, and how
 * every upload error names its file.
 */
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, documentMessages, fileProblem } from '../../contract';
import {
  fitsLimit,
  offersShrink,
  shrinkOptions,
  shrunkName,
} from '../../src/features/documents/shrinkRules';
import { namedFileProblem, shrinkText } from '../../src/features/documents/documentsText';

const over = MAX_FILE_BYTES + 1;

describe('the smaller copy of a photo (D165)', () => {
  it('aims at SPEC 5.6 limit exactly, in the library’s MB (1024 × 1024 bytes), as a JPEG on the main thread without EXIF', () => {
    expect(shrinkOptions.maxSizeMB * 1024 * 1024).toBe(MAX_FILE_BYTES);
    expect(shrinkOptions.maxSizeMB).toBe(1);
    expect(shrinkOptions.fileType).toBe('image/jpeg');
    expect(shrinkOptions.useWebWorker).toBe(false);
    expect(shrinkOptions.preserveExif).toBe(false);
  });

  it('is offered for one PNG or JPEG over the limit, whatever the case of its extension', () => {
    for (const name of ['transcript.png', 'IMG_0042.JPG', 'scan.jpeg', 'photo.Jpeg'])
      expect(offersShrink({ name, size: over }), name).toBe(true);
  });

  it('is not offered for a photo within the limit, other types, several files, or a copy whose name would be refused', () => {
    expect(offersShrink({ name: 'transcript.png', size: MAX_FILE_BYTES })).toBe(false);
    expect(offersShrink({ name: 'transcript.png', size: 0 })).toBe(false);
    for (const name of ['transcript.pdf', 'essay.docx', 'transcript.heic', 'notes.txt', 'png'])
      expect(offersShrink({ name, size: over }), name).toBe(false);
    expect(offersShrink({ name: 'transcript.png', size: over }, 2)).toBe(false);
    // The copy keeps the name, so one the checks refuse is refused as it is.
    expect(offersShrink({ name: `${'t'.repeat(29)}.png`, size: over })).toBe(false);
    expect(offersShrink({ name: '.hidden.png', size: over })).toBe(false);
    // .jpeg becomes .jpg: a 33-character .jpeg name fits once renamed.
    expect(offersShrink({ name: `${'t'.repeat(28)}.jpeg`, size: over })).toBe(true);
  });

  it('is named after the photo, ending in .jpg', () => {
    expect(shrunkName('transcript.png')).toBe('transcript.jpg');
    expect(shrunkName('IMG_0042.JPEG')).toBe('IMG_0042.jpg');
    expect(shrunkName('my.scan.jpg')).toBe('my.scan.jpg');
    expect(fileProblem({ name: shrunkName(`${'t'.repeat(28)}.jpeg`), size: 1 })).toBeNull();
  });

  it('is only offered when it truly fits under the limit', () => {
    expect(fitsLimit({ name: 'a.jpg', size: MAX_FILE_BYTES })).toBe(true);
    expect(fitsLimit({ name: 'a.jpg', size: over })).toBe(false);
    expect(fitsLimit({ name: 'a.jpg', size: 0 })).toBe(false);
  });
});

describe('upload errors name their file (D165)', () => {
  it('puts the name before SPEC 5.6 sentence, unchanged', () => {
    const text = namedFileProblem('transcript.heic', documentMessages.wrongType);
    expect(text).toBe(
      '“transcript.heic”: You can only enter the following file types: .png, .jpeg, .jpg, .pdf, .docx',
    );
    expect(namedFileProblem('scan.pdf', documentMessages.tooLarge)).toBe(
      '“scan.pdf”: Your file is too large. The maximum file size is 1 MB.',
    );
  });

  it('a photo no copy can be made of keeps SPEC 5.6 sentence, then says why', () => {
    const text = namedFileProblem('IMG_1.png', `${documentMessages.tooLarge} ${shrinkText.failed}`);
    expect(text.startsWith(`“IMG_1.png”: ${documentMessages.tooLarge} `)).toBe(true);
  });
});
