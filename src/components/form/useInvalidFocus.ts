import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * After a rejected submit, moves focus to the first field marked `aria-invalid` once React has
 * rendered the messages, so a screen reader reads the field and its error.
 */
export function useInvalidFocus() {
  const formRef = useRef<HTMLFormElement>(null);
  const [request, setRequest] = useState(0);
  useEffect(() => {
    if (request === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [request]);
  const focusInvalid = useCallback(() => setRequest((n) => n + 1), []);
  return { formRef, focusInvalid };
}
