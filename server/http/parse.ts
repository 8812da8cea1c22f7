import type * as z from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { HttpError } from '../errors';

/**
 * Parses a payload with its contract schema (classic zod or zod/mini: both build on zod's core);
 * the first problem's message answers a 400.
 */
export function parse<T extends z.$ZodType>(schema: T, input: unknown): z.output<T> {
  const result = safeParse(schema, input);
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
