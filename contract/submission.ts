/**
 * What identifies a submitted application to the applicant and to admissions: its reference and
 * its submission time, read the same on the completion page, in the receipt mail and in the PDF.
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

/** "November 27, 2026 at 5:27 PM UTC": date, minute and zone, as read out on the phone. */
export function submissionTime(date: Date, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  }).format(date);
}
