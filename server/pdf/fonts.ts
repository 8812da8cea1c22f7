/**
 * The fonts the server's prints carry with them (docs/decisions/ D135): the PDF is the same on every
 * machine, whatever fonts the system has (the bundled Chromium has none for emoji, Hebrew or
 * Hebrew). The font files come from `@fontsource` packages, each split by its authors into
 * unicode-range subsets; a print's HTML declares the subsets whose characters its text uses, at
 * FONT_ORIGIN, which the printer answers from these files (the print browser fetches nothing, D62;
 * as `data:` URLs they made the HTML megabytes long and its loading seconds slower), and Chromium
 * keeps only the glyphs drawn.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface EmbeddedFamily {
  /** The `@fontsource/<id>` package. */
  readonly id: string;
  /** Its subsets to embed (all when absent): the others are drawn by a family before it. */
  readonly subsets?: readonly string[];
  readonly weights: readonly number[];
  readonly styles: readonly ('normal' | 'italic')[];
}

/**
 * The text's families in fallback order: Noto Serif (Latin, Greek, Cyrillic, Vietnamese, combining
 * marks), then Hebrew, then monochrome emoji (outlines: small,
 * printable in black and white, and their text extractable; the color font's glyphs print blank),
 * then the symbols none of those has (✓, ★, arrows, boxes). Other scripts fall back to the system's
 * fonts: Arabic too (the Noto Arabic fonts' ligatures come out of the PDF's text as U+0000, D135).
 */
const TEXT_FAMILIES: readonly EmbeddedFamily[] = [
  { id: 'noto-serif', weights: [400, 700], styles: ['normal', 'italic'] },
  { id: 'noto-sans-hebrew', subsets: ['hebrew'], weights: [400, 700], styles: ['normal'] },
  { id: 'noto-emoji', weights: [400], styles: ['normal'] },
  {
    id: 'noto-sans-symbols-2',
    subsets: ['symbols', 'math', 'braille'],
    weights: [400],
    styles: ['normal'],
  },
];

/** The monospaced family (the checkbox marks, ASCII). */
const MONO_FAMILY: EmbeddedFamily = {
  id: 'noto-sans-mono',
  subsets: ['latin'],
  weights: [400],
  styles: ['normal'],
};

/** One @font-face of a family: one subset in one weight and style, with the code points it covers. */
interface Face {
  readonly family: string;
  readonly weight: number;
  readonly style: string;
  readonly unicodeRange: string;
  readonly ranges: readonly (readonly [number, number])[];
  /** The woff2 file, resolved in the package. */
  readonly file: string;
}

const require = createRequire(import.meta.url);

/** Where the printed HTML finds the fonts (`.invalid` resolves nowhere; the printer answers it). */
export const FONT_ORIGIN = 'https://fonts.print.invalid';

/** `U+0000-00FF,U+0131` → [[0, 255], [305, 305]]. */
export function parseUnicodeRange(range: string): [number, number][] {
  return range.split(',').map((part) => {
    const match = /^U\+([0-9a-f]+)(?:-([0-9a-f]+))?$/i.exec(part.trim());
    if (!match) throw new Error(`unsupported unicode-range part: ${part}`);
    const low = parseInt(match[1]!, 16);
    return [low, match[2] ? parseInt(match[2], 16) : low];
  });
}

function facesOf(family: EmbeddedFamily): Face[] {
  const pkg = `@fontsource/${family.id}`;
  const metadata = require(`${pkg}/metadata.json`) as { family: string };
  const unicode = require(`${pkg}/unicode.json`) as Record<string, string>;
  const subsets = Object.entries(unicode).filter(
    ([subset]) => !family.subsets || family.subsets.includes(subset),
  );
  return subsets.flatMap(([subset, unicodeRange]) => {
    // Numbered subsets are keyed "[3]" and their files named "-3-".
    const name = subset.replace(/^\[(\d+)\]$/, '$1');
    const ranges = parseUnicodeRange(unicodeRange);
    return family.weights.flatMap((weight) =>
      family.styles.map((style) => ({
        family: metadata.family,
        weight,
        style,
        unicodeRange,
        ranges,
        file: require.resolve(`${pkg}/files/${family.id}-${name}-${weight}-${style}.woff2`),
      })),
    );
  });
}

const cssFamily = (name: string) => `'${name}'`;

let faces: { text: Face[]; mono: Face[] } | undefined;

function allFaces(): { text: Face[]; mono: Face[] } {
  faces ??= { text: TEXT_FAMILIES.flatMap(facesOf), mono: facesOf(MONO_FAMILY) };
  return faces;
}

/** The families to ask for (the embedded ones first; the machine's generic family last). */
export function embeddedFamilies(): { readonly text: string; readonly mono: string } {
  const text = [...new Set(allFaces().text.map((face) => cssFamily(face.family)))].join(', ');
  const mono = cssFamily(allFaces().mono[0]!.family);
  return { text: `${text}, serif`, mono: `${mono}, ${text}, monospace` };
}

const urlOf = (face: Face) => `${FONT_ORIGIN}/${path.basename(face.file)}`;

let files: Map<string, string> | undefined;
const contents = new Map<string, Buffer>();

/** The bytes of an embedded font file by its URL, or undefined for any other URL. */
export function embeddedFontFile(url: string): Buffer | undefined {
  const { text, mono } = allFaces();
  files ??= new Map([...text, ...mono].map((face) => [urlOf(face), face.file]));
  const file = files.get(url);
  if (!file) return undefined;
  let bytes = contents.get(file);
  if (!bytes) {
    bytes = readFileSync(file);
    contents.set(file, bytes);
  }
  return bytes;
}

/** The code points of a text, sorted. */
function codePoints(text: string): number[] {
  const seen = new Set<number>();
  for (const char of text) seen.add(char.codePointAt(0)!);
  return [...seen].sort((a, b) => a - b);
}

function covers(face: Face, points: readonly number[]): boolean {
  return face.ranges.some(([low, high]) => points.some((point) => point >= low && point <= high));
}

const fontFace = (face: Face) =>
  `@font-face { font-family: ${cssFamily(face.family)}; font-style: ${face.style}; font-weight: ${face.weight}; font-display: block; src: url(${urlOf(face)}) format('woff2'); unicode-range: ${face.unicodeRange}; }\n`;

/**
 * The @font-face rules of the subsets `text` may need: every one whose range has a character of it.
 * A subset's range is wider than its glyphs (Noto Serif's claims U+270D, which only Noto Emoji
 * draws), so the later families' subsets are declared too: Chromium fetches a face only when the
 * faces before it lack a glyph.
 */
export function embeddedFontFaces(text: string): string {
  const points = codePoints(text);
  const { text: textFaces, mono } = allFaces();
  return [...mono, ...textFaces]
    .filter((face) => covers(face, points))
    .map(fontFace)
    .join('');
}

/** What the application PDF's HTML is given (`renderApplicationHtml`'s `fonts`). */
export function embeddedPrintFonts(): {
  readonly families: ReturnType<typeof embeddedFamilies>;
  fontFaces(text: string): string;
} {
  return { families: embeddedFamilies(), fontFaces: embeddedFontFaces };
}
