/**
 * What identifies a submitted application to the applicant and to admissions: its reference and
 * its submission time, read the same on the completion page, in the receipt mail and in the PDF
 * (written by `collegeTime`, D197).
 */

/**
 * The reference admissions files a copy under: the first 8 hex digits of the applicant's random id,
 * as `XXXX-XXXX` (staff find the applicant by that prefix; it reveals nothing the copy does not).
 */
export function applicationReference(userId: string): string {
  const hex = userId
    .replace(/[^0-9a-f]/gi, '')
    .slice(0, 8)
    .toUpperCase();
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
}

/**
 * A reference as typed, whole or its start (at least its first half: `2AF0`, `2AF0-8`): any case,
 * the hyphen optional. Shorter starts are left to the names, or "ada" would find references.
 */
const TYPED_REFERENCE = /^\s*([0-9a-f]{4})(?:-?([0-9a-f]{1,4}))?\s*$/i;

/** The lowest and highest ids whose `applicationReference` starts with `typed`; null when it is not one. */
export function referenceIdRange(typed: string): [string, string] | null {
  const match = TYPED_REFERENCE.exec(typed);
  if (!match) return null;
  const hex = `${match[1]}${match[2] ?? ''}`.toLowerCase();
  return [
    `${hex.padEnd(8, '0')}-0000-0000-0000-000000000000`,
    `${hex.padEnd(8, 'f')}-ffff-ffff-ffff-ffffffffffff`,
  ];
}
