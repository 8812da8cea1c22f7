/**
 * Sensitive answers, as the definition marks them (`sensitive: true` on a question): the one source
 * of the keys that never leave memory before the applicant has an account (SECURITY.md: not in web
 * storage; D70: not in the anonymous temporary answers).
 */
import type { Definition } from './format';
import { compile } from './model';

const cache = new WeakMap<Definition, ReadonlySet<string>>();

/** Every answer key a sensitive question owns (its value, its label and year keys, in every slot). */
export function sensitiveKeys(definition: Definition): ReadonlySet<string> {
  let keys = cache.get(definition);
  if (!keys) {
    const found = new Set<string>();
    for (const instance of compile(definition).instances)
      if (instance.question.sensitive) for (const key of instance.ownedKeys) found.add(key);
    keys = found;
    cache.set(definition, keys);
  }
  return keys;
}

/** The answers without their sensitive keys (a new map). */
export function withoutSensitive<T>(
  definition: Definition,
  answers: Readonly<Record<string, T>>,
): Record<string, T> {
  const sensitive = sensitiveKeys(definition);
  return Object.fromEntries(Object.entries(answers).filter(([key]) => !sensitive.has(key)));
}
