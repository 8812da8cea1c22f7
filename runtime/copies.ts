/**
 * Copies of an application (the staff view and the applicant's PDF) show some answers masked, as the
 * definition marks them (`inCopies: 'lastFour'` on an SSN question): only the last four digits.
 */
import type { Definition } from './format';
import { compile } from './model';
import type { Answers } from './values';

/** `123-45-6789` → `***-**-6789`; a value without digits (or not a string) is left as it is. */
export function maskLastFour(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const digits = value.replace(/\D/g, '');
  if (digits.length === 0) return value;
  return `***-**-${digits.slice(-4)}`;
}

/** The answer keys a copy shows masked. */
export function keysMaskedInCopies(definition: Definition): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const [key, spec] of compile(definition).keySpecs)
    if (spec.type === 'text' && spec.lastFourInCopies) keys.add(key);
  return keys;
}

/** The answers as a copy of the application shows them (a new map; the input is not changed). */
export function answersForCopy(definition: Definition, answers: Answers): Answers {
  const masked = keysMaskedInCopies(definition);
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(answers))
    copy[key] = masked.has(key) ? maskLastFour(value) : value;
  return copy;
}
