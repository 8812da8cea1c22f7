/**
 * What became of the mail this process handled (D138), for the operator's metrics: `queued` by the
 * web processes, the others by the job worker. A metrics module adds a listener (e.g. a counter's
 * `inc` per outcome); `mailCounts` reads the totals since the process started.
 */
export const MAIL_OUTCOMES = ['queued', 'sent', 'retried', 'given_up'] as const;
export type MailOutcome = (typeof MAIL_OUTCOMES)[number];

const counts = Object.fromEntries(MAIL_OUTCOMES.map((outcome) => [outcome, 0])) as Record<
  MailOutcome,
  number
>;
const listeners = new Set<(outcome: MailOutcome) => void>();

export function countMail(outcome: MailOutcome): void {
  counts[outcome] += 1;
  for (const listener of listeners) listener(outcome);
}

export function mailCounts(): Readonly<Record<MailOutcome, number>> {
  return { ...counts };
}

/** Calls `listener` on every count from now on; returns what removes it. */
export function onMailCounted(listener: (outcome: MailOutcome) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
