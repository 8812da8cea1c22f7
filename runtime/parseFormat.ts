/** Reading a definition's format check: the first problem, with its path, as a ConfigurationError. */
import type { Definition } from './format';
import { ConfigurationError } from './errors';
import { definitionSchema } from './schema';

/** `pages[0].children[2].kind`: a zod issue path as a reader writes it. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out || '(root)';
}

interface FormatIssue {
  readonly code: string;
  readonly message: string;
  readonly path: readonly PropertyKey[];
  readonly errors?: readonly (readonly FormatIssue[])[];
}

/**
 * The most telling issue: for a union that failed, the branch the author most plausibly meant (the
 * one without unknown properties and with the fewest problems), so an unknown operator is reported
 * as such instead of as "Invalid input".
 */
function mostTelling(
  issue: FormatIssue,
  prefix: readonly PropertyKey[] = [],
): { message: string; path: PropertyKey[] } {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors && issue.errors.length > 0) {
    const score = (branch: readonly FormatIssue[]) =>
      branch.filter((i) => i.code === 'unrecognized_keys').length * 1000 + branch.length;
    const best = [...issue.errors].sort((a, b) => score(a) - score(b))[0];
    if (best && best[0]) return mostTelling(best[0], path);
  }
  return { message: issue.message, path };
}

/** Checks the format; throws a ConfigurationError naming the first problem's path. */
export function parseDefinitionFormat(data: unknown): Definition {
  const result = definitionSchema.safeParse(data);
  if (result.success) return result.data;
  const first = result.error.issues[0] as FormatIssue | undefined;
  if (!first) throw new ConfigurationError('Invalid definition');
  const { message, path } = mostTelling(first);
  throw new ConfigurationError(`Invalid definition: ${message}`, formatPath(path));
}
