/**
 * Images before they are embedded (SECURITY.md 3.5): a header check of the size before anything is
 * decoded, and JPEGs rewritten down to what decoding needs. pdf-lib embeds a JPEG's bytes as they are
 * (a PDF viewer decodes them), so without the rewrite the EXIF block (GPS position, camera serial),
 * XMP, comments and anything after the end-of-image marker (a JPEG+HTML polyglot) would reach the
 * PDF. PNGs need no rewrite: pdf-lib decodes them and writes the pixels anew (docs/decisions/ D61),
 * but its decoder (UPNG) trusts the file: a PNG cut short kept it busy until the time limit, and an
 * animated one has every frame expanded. So a PNG's chunks are walked first.
 */
import { crc32, inflateSync } from 'node:zlib';
import { imageSize } from 'image-size';

export const MAX_IMAGE_PIXELS = 40_000_000;

export type ImageCheck =
  { ok: true; width: number; height: number } | { ok: false; reason: 'broken' | 'tooLarge' };

/** Width and height from the header (nothing is decoded), or why the image is refused. */
export function checkImageHeader(bytes: Uint8Array, maxPixels = MAX_IMAGE_PIXELS): ImageCheck {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    return { ok: false, reason: 'broken' };
  }
  const width = size.width ?? 0;
  const height = size.height ?? 0;
  if (width <= 0 || height <= 0) return { ok: false, reason: 'broken' };
  if (width * height > maxPixels) return { ok: false, reason: 'tooLarge' };
  return { ok: true, width, height };
}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP14 = 0xee;

/** Frame headers (SOF0–SOF15, less DHT, JPG and DAC). */
const isFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Segments decoding needs: frames, Huffman and arithmetic tables, quantisation, restart interval, line count. */
const isNeeded = (marker: number) =>
  (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc8) ||
  marker === 0xdb ||
  marker === 0xdd ||
  marker === 0xdc;

const startsWith = (bytes: Uint8Array, text: string) =>
  bytes.length >= text.length && [...text].every((c, i) => bytes[i] === c.charCodeAt(0));

/**
 * The JPEG with only the segments decoding needs, in their order: frame and tables, each scan with its
 * entropy-coded data, a bare JFIF header (no thumbnail) and Adobe's colour-transform marker. Every
 * other APPn segment (EXIF, XMP, ICC, IPTC), comments and anything after the end-of-image marker go.
 * Null when the structure is broken: no frame or scan, a segment running past the end, or no
 * end-of-image marker (a truncated file).
 */
export function cleanJpeg(input: Uint8Array): Uint8Array | null {
  if (input.length < 4 || input[0] !== 0xff || input[1] !== SOI) return null;
  const parts: Uint8Array[] = [Uint8Array.of(0xff, SOI)];
  let position = 2;
  let frame = false;
  let scans = 0;
  while (position < input.length) {
    if (input[position] !== 0xff) return null;
    while (input[position] === 0xff) position += 1; // fill bytes
    const marker = input[position];
    position += 1;
    if (marker === undefined) return null;
    if (marker === EOI) {
      if (!frame || scans === 0) return null;
      parts.push(Uint8Array.of(0xff, EOI));
      return concat(parts);
    }
    // Stuffing, TEM, restart markers and a second SOI have no business between segments.
    if (marker === 0x00 || marker === 0x01 || (marker >= 0xd0 && marker <= SOI)) return null;
    if (position + 2 > input.length) return null;
    const length = ((input[position] as number) << 8) | (input[position + 1] as number);
    if (length < 2 || position + length > input.length) return null;
    const data = input.subarray(position + 2, position + length);
    position += length;
    if (marker === SOS) {
      if (!frame) return null;
      parts.push(Uint8Array.of(0xff, SOS), input.subarray(position - length, position));
      // Entropy-coded data runs to the next marker other than a stuffed 0xFF00 or a restart marker.
      let end = position;
      for (;;) {
        end = input.indexOf(0xff, end);
        if (end < 0 || end + 1 >= input.length) return null;
        const next = input[end + 1] as number;
        if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) end += 2;
        else break;
      }
      parts.push(input.subarray(position, end));
      position = end;
      scans += 1;
      continue;
    }
    if (isNeeded(marker)) {
      if (isFrame(marker)) frame = true;
      parts.push(Uint8Array.of(0xff, marker), input.subarray(position - length, position));
    } else if (marker === APP0 && startsWith(data, 'JFIF\0') && data.length >= 14) {
      // Version, units and density; the thumbnail is dropped.
      parts.push(Uint8Array.of(0xff, APP0, 0, 16), data.subarray(0, 12), Uint8Array.of(0, 0));
    } else if (marker === APP14 && startsWith(data, 'Adobe') && data.length >= 12) {
      parts.push(Uint8Array.of(0xff, APP14, 0, 14), data.subarray(0, 12));
    }
  }
  return null;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ANIMATION_CHUNKS = new Set(['acTL', 'fcTL', 'fdAT']);
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * A PNG's structure before pdf-lib decodes it: the signature, IHDR first, every chunk whole with a
 * matching CRC, no animation chunks, at least one IDAT, and an IEND; the image data must be one
 * complete zlib stream no larger than the header allows. `animated` is an APNG (not an allowed type).
 */
export function checkPng(bytes: Uint8Array): 'ok' | 'broken' | 'animated' {
  if (bytes.length < 8 || PNG_SIGNATURE.some((byte, i) => bytes[i] !== byte)) return 'broken';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const data: Uint8Array[] = [];
  let rawBound = 0;
  let position = 8;
  let first = true;
  while (position + 12 <= bytes.length) {
    const length = view.getUint32(position);
    const end = position + 8 + length;
    if (length > 0x7fffffff || end + 4 > bytes.length) return 'broken';
    const typed = bytes.subarray(position + 4, end);
    const type = String.fromCharCode(...typed.subarray(0, 4));
    if (!/^[A-Za-z]{4}$/.test(type)) return 'broken';
    if (crc32(typed) !== view.getUint32(end)) return 'broken';
    if (first !== (type === 'IHDR')) return 'broken';
    if (first) {
      if (length !== 13) return 'broken';
      const width = view.getUint32(position + 8);
      const height = view.getUint32(position + 12);
      const depth = bytes[position + 16] as number;
      const channels = PNG_CHANNELS[bytes[position + 17] as number];
      if (!channels) return 'broken';
      // Filter bytes, and at most 7 interlacing passes' worth of them, on top of the pixels.
      rawBound = (Math.ceil((width * channels * depth) / 8) + 1) * height + 8 * height + 64;
      first = false;
    }
    if (ANIMATION_CHUNKS.has(type)) return 'animated';
    if (type === 'IDAT') data.push(bytes.subarray(position + 8, end));
    if (type === 'IEND') {
      if (data.length === 0) return 'broken';
      try {
        inflateSync(Buffer.concat(data), { maxOutputLength: Math.max(1, rawBound) });
      } catch {
        return 'broken';
      }
      return 'ok';
    }
    position = end + 4;
  }
  return 'broken';
}
