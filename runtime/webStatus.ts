export type WebStatus = 'started' | 'validating' | 'submitted';

/** The order of the statuses; the nth distinct value recorded means the nth status (SPEC 4.1). */
export const WEB_STATUSES: readonly WebStatus[] = ['started', 'validating', 'submitted'];

/**
 * SPEC 4.1: web_status from the number of distinct values in the profile's web_status array:
 * 0 → null, 1 → started, 2 → validating, 3 (or more) → submitted.
 */
export function deriveWebStatus(
  entries: readonly { readonly web_status: string }[],
): WebStatus | null {
  const distinct = new Set(entries.map((entry) => entry.web_status)).size;
  if (distinct === 0) return null;
  return WEB_STATUSES[Math.min(distinct, WEB_STATUSES.length) - 1] ?? null;
}
