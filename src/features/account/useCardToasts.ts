import { useCallback } from 'react';
import { GENERIC_ERROR_MESSAGE } from '#contract';
import { ServerError, UnauthorizedError } from '../../api/client';
import { useToast } from '../../chrome/toast';
import { accountText } from './accountText';

/** The text of a failed call: the server's message, else the generic one (SPEC 8). */
export function serverMessage(error: unknown): string {
  return error instanceof ServerError ? error.message : GENERIC_ERROR_MESSAGE;
}

/** The cards' toasts: an error toast titled and labelled `title`, and the success toast. */
export function useCardToasts() {
  const { show } = useToast();
  const showError = useCallback(
    (title: string, error: unknown) => {
      // SPEC 8: a 401 is handled centrally (cache cleared, back to /login), never toasted.
      if (error instanceof UnauthorizedError) return;
      show({ title, label: title, severity: 'error', description: serverMessage(error) });
    },
    [show],
  );
  const showSuccess = useCallback(
    (message: string) => {
      show({
        title: accountText.successToastTitle,
        label: accountText.successToastLabel,
        severity: 'success',
        description: message,
      });
    },
    [show],
  );
  return { showError, showSuccess };
}
