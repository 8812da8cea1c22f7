import { useForm, useStore } from '@tanstack/react-form';
import { useInvalidFocus } from './useInvalidFocus';
import { firstErrors, type ParseResult } from './validation';

/**
 * A card's form (SPEC 5.2) on TanStack Form: the fields' values, the contract's schema as the
 * validator (its first message per field, rechecked as the applicant types), the submit attempt,
 * and focus on the first invalid field after a refused one. `parse` turns the values into the
 * request body (trimming where the card does), so what is validated is what is sent.
 */
export function useAccountForm<TValues extends Record<string, string>, TBody>(options: {
  readonly defaultValues: TValues;
  readonly parse: (values: TValues) => ParseResult<TBody>;
  readonly onValid: (body: TBody) => void;
}) {
  const { formRef, focusInvalid } = useInvalidFocus();
  const form = useForm({
    defaultValues: options.defaultValues,
    validators: {
      // Runs on every change and on submit.
      onChange: ({ value }) => {
        const fields = firstErrors(options.parse(value));
        return Object.keys(fields).length > 0 ? { fields } : undefined;
      },
    },
    onSubmit: ({ value }) => {
      const result = options.parse(value);
      if (result.success) options.onValid(result.data);
    },
    onSubmitInvalid: focusInvalid,
  });
  const submitted = useStore(form.store, (state) => state.submissionAttempts > 0);
  return { form, formRef, focusInvalid, submitted, submit: () => void form.handleSubmit() };
}

/** The field's first message, as the field shows it. */
export function fieldError(meta: { readonly errors: readonly unknown[] }): string | undefined {
  const [first] = meta.errors;
  return first === undefined || first === null ? undefined : String(first);
}
