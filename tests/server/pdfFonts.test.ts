/**
 * D135: the application PDF carries the fonts its text needs, declared by the characters it prints
 * and answered by the printer from the packages' files: every character of the hard essay has an
 * embedded face, and a plain Latin copy declares only the Latin subsets.
 */
import { describe, expect, it } from 'vitest';
import {
  embeddedFamilies,
  embeddedFontFaces,
  embeddedFontFile,
  FONT_ORIGIN,
  parseUnicodeRange,
} from '../../server/pdf/fonts';
import { hardText } from '../fixtures/hardText';

interface ParsedFace {
  family: string;
  url: string;
  weight: string;
  style: string;
  ranges: [number, number][];
}

function parsedFaces(css: string): ParsedFace[] {
  return [...css.matchAll(/@font-face \{([^}]*)\}/g)].map(([, body]) => {
    const value = (name: string) => new RegExp(`${name}: ([^;]*);`).exec(body!)?.[1] ?? '';
    return {
      family: value('font-family').replace(/'/g, ''),
      url: /url\(([^)]*)\)/.exec(body!)?.[1] ?? '',
      weight: value('font-weight'),
      style: value('font-style'),
      ranges: parseUnicodeRange(value('unicode-range')),
    };
  });
}

const covered = (faces: ParsedFace[], point: number) =>
  faces.some((face) => face.ranges.some(([low, high]) => point >= low && point <= high));

describe('D135 fonts embedded in the application PDF', () => {
  it('gives every printable character of the hard essay an embedded face', () => {
    const faces = parsedFaces(embeddedFontFaces(hardText(7000)));
    // Arabic is left to the machine's fonts (D135).
    const missing = [...new Set(hardText(7000))].filter(
      (char) => !/[\s\u0600-\u06FF]/.test(char) && !covered(faces, char.codePointAt(0)!),
    );
    expect(missing).toEqual([]);
    const families = new Set(faces.map((face) => face.family));
    expect([...families].sort()).toEqual([
      'Noto Emoji',
      'Noto Sans Hebrew',
      'Noto Sans Mono',
      'Noto Sans Symbols 2',
      'Noto Serif',
    ]);
    // Text in bold and italic has faces of its own (headings, labels, repeated groups' titles).
    const serif = faces.filter((face) => face.family === 'Noto Serif');
    expect(new Set(serif.map((face) => `${face.weight} ${face.style}`))).toEqual(
      new Set(['400 normal', '700 normal', '400 italic', '700 italic']),
    );
  });

  it('declares only the subsets a text uses, at the origin the printer answers', () => {
    const latin = embeddedFontFaces('Alex Applicant, Main Street [X]');
    const faces = parsedFaces(latin);
    expect(faces.map((face) => face.family)).not.toContain('Noto Emoji');
    expect(faces.map((face) => face.family)).not.toContain('Noto Sans Hebrew');
    expect(faces.every((face) => covered([face], 'A'.codePointAt(0)!))).toBe(true);
    expect(latin.length).toBeLessThan(10_000);
    for (const face of faces) {
      expect(face.url.startsWith(`${FONT_ORIGIN}/`)).toBe(true);
      // A woff2 file's signature.
      expect(embeddedFontFile(face.url)?.subarray(0, 4).toString('latin1')).toBe('wOF2');
    }
    expect(embeddedFontFile(`${FONT_ORIGIN}/../../package.json`)).toBeUndefined();
    expect(
      embeddedFontFile('https://example.com/noto-serif-latin-400-normal.woff2'),
    ).toBeUndefined();
    expect(embeddedFontFaces('Emoji 😀').length).toBeGreaterThan(latin.length);
    expect(embeddedFontFaces('')).toBe('');
  });

  it('asks for the embedded families first, the machine’s generic family last', () => {
    const { text, mono } = embeddedFamilies();
    expect(text).toMatch(/^'Noto Serif', .*'Noto Emoji', 'Noto Sans Symbols 2', serif$/);
    expect(mono).toMatch(/^'Noto Sans Mono', 'Noto Serif', .*monospace$/);
  });
});
