import { useState } from 'react';
import { useInvalidFocus } from './useInvalidFocus';
import { firstErrors, type ParseResult } from './validation';

/**
 * A card's submit attempt (SPEC 5.2): remembers that one was made (checks show from then on), gives
 * the first message per field, and either sends the parsed body or moves focus to the first
 * invalid field.
 */
export function useCardSubmit<T>(result: ParseResult<T>) {
  const { formRef, focusInvalid } = useInvalidFocus();
  const [submitted, setSubmitted] = useState(false);
  const errors = firstErrors(result);
  const attempt = (send: (body: T) => void) => {
    setSubmitted(true);
    if (!result.success) {
      focusInvalid();
      return;
    }
    send(result.data);
  };
  return { formRef, focusInvalid, submitted, errors, attempt };
}
