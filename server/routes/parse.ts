import type { z } from 'zod';
import { HttpError } from '../errors';

/** Parses a payload with its contract schema; the first problem's message answers a 400. */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    (errors[key] ??= []).push(issue.message);
  }
  throw new HttpError(
    400,
    result.error.issues[0]?.message ?? 'The request could not be understood.',
    { errors },
  );
}
