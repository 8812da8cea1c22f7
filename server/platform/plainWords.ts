/**
 * A college's files are checked in plain words (D194): every problem is `{ path, message }`, the
 * path as a reader writes it (`config.colors.primary`, `pages[1].children[0]`), the message a
 * sentence an IT person acts on ("must be a hex colour such as #1d4f91"), never a regular
 * expression or a parser's internals. Here: the words for a schema's issues, and JSON's syntax
 * errors with their line and column.
 */
import type { $ZodIssue, $ZodRawIssue } from 'zod/v4/core';

/** One problem of a file: where, and what is wrong in words. */
export interface FileProblem {
  readonly path: string;
  readonly message: string;
}

/** `pages[0].children[2].kind`: a schema path as a reader writes it; `(root)` for the file. */
export function pathOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out || '(root)';
}

const quote = (value: unknown) => JSON.stringify(value);

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list [ … ]',
  object: 'an object { … }',
  null: 'null',
  literal: 'a fixed value',
};

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

function sizeWords(issue: {
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
  inclusive?: boolean;
}): string {
  const small = 'minimum' in issue;
  const bound = Number(small ? issue.minimum : issue.maximum);
  switch (issue.origin) {
    case 'string':
      if (small && bound === 1) return 'must not be empty';
      return `must be ${small ? 'at least' : 'at most'} ${bound} characters long`;
    case 'array':
      if (small && bound === 1) return 'must list at least one entry';
      return `must list ${small ? 'at least' : 'at most'} ${bound} entries`;
    default:
      if (issue.inclusive === false) return `must be ${small ? 'more' : 'less'} than ${bound}`;
      return `must be ${small ? 'at least' : 'at most'} ${bound}`;
  }
}

const FORMAT_WORDS: Record<string, string> = {
  email: 'must be an e-mail address such as help@college.edu',
  url: 'must be a web address starting with https://',
  datetime: 'must be a date and time with its offset from UTC, such as 2027-01-10T00:00:00-08:00',
  date: 'must be a date written YYYY-MM-DD, such as 2027-01-10',
};

/**
 * The schema's issues in plain words, as a per-parse error map: a message the schema gives itself
 * (a key's form, a colour's) takes precedence over these.
 */
export function plainError(issue: $ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is missing';
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}, not ${kindOf(issue.input)}`;
    case 'too_small':
    case 'too_big':
      return sizeWords(issue);
    case 'invalid_format':
      if (issue.format === 'starts_with' && 'prefix' in issue)
        return `must start with ${quote(issue.prefix)}`;
      return FORMAT_WORDS[issue.format] ?? 'is not written the way this field needs';
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return 'is not a property this file knows (a typo?)';
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${quote(issue.values[0])}`
        : `must be one of ${issue.values.map(quote).join(', ')}`;
    case 'invalid_union': {
      // A discriminated union's tag (`mode`, `category`) names none of its forms.
      const options = (issue as { options?: readonly unknown[] }).options;
      return options && options.length > 0
        ? `must be one of ${options.map(quote).join(', ')}`
        : 'matches none of the forms this entry may take';
    }
    case 'invalid_key':
      return 'has a name that is not allowed here';
    case 'invalid_element':
      return 'holds an entry that is not allowed here';
    default:
      return 'is not allowed here';
  }
}

/**
 * For a union that failed, the branch the author most plausibly meant (the one without unknown
 * properties and with the fewest problems), so an unknown operator is reported as such.
 */
function mostTelling(issue: $ZodIssue, prefix: readonly PropertyKey[]): $ZodIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const score = (branch: readonly $ZodIssue[]) =>
      branch.filter((i) => i.code === 'unrecognized_keys').length * 1000 + branch.length;
    const best = [...issue.errors].sort((a, b) => score(a) - score(b))[0];
    if (best && best.length > 0) return best.flatMap((inner) => mostTelling(inner, path));
  }
  return [{ ...issue, path: path as PropertyKey[] } as $ZodIssue];
}

/** Every issue of a parse as problems: unknown properties one by one, at their own path. */
export function issueProblems(issues: readonly $ZodIssue[]): FileProblem[] {
  const problems: FileProblem[] = [];
  for (const issue of issues.flatMap((issue) => mostTelling(issue, []))) {
    if (issue.code === 'unrecognized_keys')
      for (const key of issue.keys)
        problems.push({ path: pathOf([...issue.path, key]), message: issue.message });
    else problems.push({ path: pathOf(issue.path), message: issue.message });
  }
  return problems;
}

/** A JSON text's data, or its first syntax error with the line and column it is at. */
export function parseJson(
  text: string,
): { ok: true; data: unknown } | { ok: false; problem: FileProblem } {
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch {
    const { at, message } = syntaxError(text);
    const before = text.slice(0, at).split('\n');
    const line = before.length;
    const column = (before.at(-1)?.length ?? 0) + 1;
    return { ok: false, problem: { path: `line ${line}, column ${column}`, message } };
  }
}

/** Finds where a JSON text that does not parse goes wrong (JSON.parse does not always say). */
function syntaxError(text: string): { at: number; message: string } {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw Object.assign(new Error(message), { at });
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const end = (what: string) => (i >= text.length ? fail(`the file ends before ${what}`) : null);
  const literal = (word: string) =>
    text.startsWith(word, i) ? (i += word.length) : fail('expected a value here');
  const string = () => {
    i++;
    for (;;) {
      end('this text is closed with "');
      const c = text[i] as string;
      if (c === '"') return void i++;
      if (c === '\n') fail('a text must be closed with " on the same line');
      if (c === '\\') {
        i++;
        end('this text is closed with "');
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('\\u needs four hex digits');
          i += 5;
        } else if ('"\\/bfnrt'.includes(text[i] as string)) i++;
        else fail('this is not a known escape: use \\", \\\\, \\n or \\u0000');
      } else i++;
    }
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match?.[0]) fail('expected a value here');
    i += (match as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    space();
    end('a value');
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === 't') return void literal('true');
    if (c === 'f') return void literal('false');
    if (c === 'n') return void literal('null');
    if (c === "'") fail('texts and names are written in double quotes "…", not single ones');
    return number();
  };
  const list = (close: string, entry: () => void, what: string) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      entry();
      space();
      end(`the ${what} is closed with ${close}`);
      if (text[i] === close) return void i++;
      if (text[i] !== ',') fail(`expected a comma or ${close} here: is a comma missing?`);
      const comma = i++;
      space();
      if (text[i] === close) fail(`a comma may not come just before ${close}`, comma);
    }
  };
  const object = () =>
    list(
      '}',
      () => {
        space();
        end('the object is closed with }');
        if (text[i] !== '"') fail('expected a property name in double quotes here');
        string();
        space();
        if (text[i] !== ':') fail('expected a colon : after the property name');
        i++;
        value();
      },
      'object',
    );
  const array = () => list(']', value, 'list');
  try {
    value();
    space();
    if (i < text.length) fail('the file goes on after its end: is something left over?');
    return { at: 0, message: 'is not JSON' };
  } catch (error) {
    const at = (error as { at?: number }).at ?? 0;
    return { at, message: (error as Error).message };
  }
}
