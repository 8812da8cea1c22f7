/** The answer map as the runtime receives it: anything may be in it, so every read is defensive. */
export type Answers = Readonly<Record<string, unknown>>;

/** What a well-formed answer holds (SPEC 3.3): text, true/false, or null (cleared). */
export type AnswerValue = string | boolean | null;

/** The blank option value that heads every option list; it counts as empty. */
export const BLANK = '--';

const PROTOTYPE_NAMES: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  '__proto__',
]);

/** True for names that an object inherits (`constructor`, `toString`, `__proto__`): never an answer key. */
export function isPrototypeName(key: string): boolean {
  return PROTOTYPE_NAMES.has(key);
}

/**
 * A reader for one key, built once on the hot path: a plain property read for definition keys
 * (the format forbids prototype names), the own-property check otherwise.
 */
export function answerReader(key: string): (answers: Answers) => unknown {
  if (isPrototypeName(key)) return (answers) => readAnswer(answers, key);
  return (answers) => answers[key];
}

/**
 * The engine's shared copy of a key, as an object's property names are: reading an answer with it
 * skips hashing and comparing a freshly built string (a key from a definition built in code is one).
 */
export function internalized(key: string): string {
  return Object.keys({ [key]: null })[0] ?? key;
}

/** Reads an answer without ever reaching the prototype chain (`__proto__`, `constructor`). */
export function readAnswer(answers: Answers, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(answers, key) ? answers[key] : undefined;
}

/** SPEC 3.3: '', null, undefined and '--' are empty. `false` is empty too (an unticked box). */
export function isEmpty(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || value === BLANK || value === false
  );
}

/** Text of a value for the rules that read text; non-text values give null (and fail those rules). */
export function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** A number from a numeric string or number; NaN when there is none. */
export function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

/** Empty, or text of white space only: what a required rule treats as missing. */
export function isBlank(value: unknown): boolean {
  return isEmpty(value) || (typeof value === 'string' && value.trim() === '');
}
