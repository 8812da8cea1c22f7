import type { z } from 'zod';

/** The first message per field (top-level key) of a failed parse; empty when it succeeded. */
export function firstErrors(result: {
  success: boolean;
  error?: z.ZodError;
}): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  if (result.success || !result.error) return errors;
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_';
    errors[key] ??= issue.message;
  }
  return errors;
}
