/**
 * SPEC 4.1's web status: the application's progress as this product records it. It is the
 * product's, not the form runtime's (a form knows nothing of an application's life).
 */

/** The statuses in order; the nth distinct value recorded means the nth status (SPEC 4.1). */
export const WEB_STATUSES = ['started', 'validating', 'submitted'] as const;
export type WebStatus = (typeof WEB_STATUSES)[number];

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
