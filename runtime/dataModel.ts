import { compile, type KeySpec } from './model';
import type { Definition } from './format';
import { asAnswers } from './validate';
import { withinLength } from './textLength';
import { isIsoDate } from './dates';

/**
 * The tenant data model (SPEC 5.8): every answer key the definition can produce, with repeated slots
 * and add-another instances expanded, `_desc` keys of select and radio questions, and both keys of
 * month/year questions. The server rejects any other key.
 */
export function dataModelKeys(definition: Definition): string[] {
  return [...compile(definition).keySpecs.keys()];
}

/** What the key may hold, or undefined for a key outside the data model. */
export function keySpec(definition: Definition, key: string): KeySpec | undefined {
  return compile(definition).keySpecs.get(key);
}

export interface AnswerProblem {
  readonly key: string;
  readonly reason: 'unknownKey' | 'wrongType' | 'tooLong';
}

/** The value a cleared answer takes: false for check boxes, '' for everything else (SPEC 3.3). */
export function emptyValueFor(definition: Definition, key: string): '' | false {
  return compile(definition).keySpecs.get(key)?.type === 'boolean' ? false : '';
}

/**
 * The shape check every save runs on the server (and the client may run too): only keys of the data
 * model, each with the type the definition allows and within its length; a date only as a real ISO
 * date (the client saves nothing else, D121). Returns the problems, none when the map is acceptable.
 * Empty values ('' and null) are accepted for every key.
 */
export function answerProblems(definition: Definition, answers: unknown): AnswerProblem[] {
  const specs = compile(definition).keySpecs;
  const problems: AnswerProblem[] = [];
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) {
    return [{ key: '', reason: 'wrongType' }];
  }
  const input = asAnswers(answers);
  for (const key of Object.keys(input)) {
    const spec = specs.get(key);
    if (!spec) {
      problems.push({ key, reason: 'unknownKey' });
      continue;
    }
    const value = input[key];
    if (value === null || value === '') continue;
    switch (spec.type) {
      case 'text':
        if (typeof value !== 'string') problems.push({ key, reason: 'wrongType' });
        else if (!withinLength(value, spec.maxLength)) problems.push({ key, reason: 'tooLong' });
        break;
      case 'date':
        if (typeof value !== 'string' || !isIsoDate(value))
          problems.push({ key, reason: 'wrongType' });
        break;
      case 'boolean':
        if (typeof value !== 'boolean') problems.push({ key, reason: 'wrongType' });
        break;
      case 'document':
        if (value !== 'ANSWERED') problems.push({ key, reason: 'wrongType' });
        break;
      default:
        throw new Error(`Unhandled key spec ${JSON.stringify(spec satisfies never)}`);
    }
  }
  return problems;
}
