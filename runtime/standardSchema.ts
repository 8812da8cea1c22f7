/**
 * The compiled validator as a Standard Schema (https://standardschema.dev), so integrators can plug the
 * definition's rules into TanStack Form or any Standard Schema consumer.
 */
import type { Definition } from './format';
import { asAnswers, validateAnswers, type ValidateOptions } from './validate';

export interface StandardIssue {
  readonly message: string;
  readonly path: readonly PropertyKey[];
}

export type StandardResult<T> =
  | { readonly value: T; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

export interface AnswersStandardSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'admission-runtime';
    readonly validate: (value: unknown) => StandardResult<Record<string, unknown>>;
    readonly types?: {
      readonly input: Record<string, unknown>;
      readonly output: Record<string, unknown>;
    };
  };
}

export function answersStandardSchema(
  definition: Definition,
  options: ValidateOptions | (() => ValidateOptions) = {},
): AnswersStandardSchema {
  return {
    '~standard': {
      version: 1,
      vendor: 'admission-runtime',
      validate(value) {
        const resolved = typeof options === 'function' ? options() : options;
        const { errors } = validateAnswers(definition, value, resolved);
        const issues: StandardIssue[] = [];
        for (const [key, messages] of Object.entries(errors)) {
          for (const message of messages) issues.push({ message, path: [key] });
        }
        return issues.length === 0 ? { value: { ...asAnswers(value) } } : { issues };
      },
    },
  };
}

/**
 * A form-level validator in the shape TanStack Form expects from `validators.onChange`:
 * `{ fields: { [key]: firstMessage } }`, or undefined when everything is valid.
 */
export function formLevelValidator(
  definition: Definition,
  options: ValidateOptions | (() => ValidateOptions) = {},
): (input: { value: unknown }) => { fields: Record<string, string> } | undefined {
  return ({ value }) => {
    const resolved = typeof options === 'function' ? options() : options;
    const { errors } = validateAnswers(definition, value, resolved);
    const fields: Record<string, string> = {};
    let any = false;
    for (const [key, messages] of Object.entries(errors)) {
      if (messages[0] !== undefined) {
        fields[key] = messages[0];
        any = true;
      }
    }
    return any ? { fields } : undefined;
  };
}
