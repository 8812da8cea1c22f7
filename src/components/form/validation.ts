/** A parse result as zod (classic or mini) gives it. */
export type ParseResult<T> =
  | { success: true; data: T }
  | {
      success: false;
      error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
    };

/** The first message per field (top-level key) of a failed parse; empty when it succeeded. */
export function firstErrors(result: ParseResult<unknown>): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_';
    errors[key] ??= issue.message;
  }
  return errors;
}
