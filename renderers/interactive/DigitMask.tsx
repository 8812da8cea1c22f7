/**
 * A text input that keeps digits only and shows them through a `#` pattern (a phone number, an SSN),
 * with the caret kept after the digit just typed or deleted. What the input shows is what is stored:
 * the digits typed so far through the pattern, with no placeholder characters after them. Written
 * here rather than taken from a mask library: the smallest that fit cost 2.6–4 kB on the first page,
 * this costs a tenth of that (docs/decisions/ D110).
 */
import { useLayoutEffect, useRef, type ComponentPropsWithoutRef } from 'react';
import { digitCount, digitsOf, formatDigits } from '../answers';

export interface DigitMaskProps extends Omit<
  ComponentPropsWithoutRef<'input'>,
  'value' | 'defaultValue' | 'onChange' | 'type'
> {
  readonly pattern: string;
  /** The text to show; its digits are shown through the pattern. */
  readonly text: string;
  /** The applicant changed the digits: the new text, formatted. */
  readonly onText: (text: string) => void;
  readonly type?: 'text' | 'tel' | 'password';
  /**
   * Reads an insertion (a key, a paste) its own way, e.g. a pasted date or a one-digit month typed
   * with its slash: the digits and how many of them precede the caret; null reads digits as typed.
   */
  readonly readInsertion?: (raw: string, caret: number) => DigitsRead | null;
}

export interface DigitsRead {
  readonly digits: string;
  readonly before: number;
}

/** The position just after the `count`-th digit of a formatted text (0 for none). */
function afterDigits(formatted: string, count: number): number {
  if (count === 0) return 0;
  let seen = 0;
  for (let index = 0; index < formatted.length; index++) {
    if (/\d/.test(formatted[index] as string) && ++seen === count) return index + 1;
  }
  return formatted.length;
}

export function DigitMask({
  pattern,
  text,
  onText,
  type = 'text',
  readInsertion,
  ...input
}: DigitMaskProps) {
  const ref = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);
  const max = digitCount(pattern);
  const digits = digitsOf(text, max);
  const shown = formatDigits(digits, pattern);
  useLayoutEffect(() => {
    const at = caret.current;
    caret.current = null;
    const element = ref.current;
    if (at !== null && element && element === element.ownerDocument.activeElement)
      element.setSelectionRange(at, at);
  });
  return (
    <input
      {...input}
      ref={ref}
      type={type}
      value={shown}
      onChange={(event) => {
        const raw = event.currentTarget.value;
        const end = event.currentTarget.selectionStart ?? raw.length;
        const read = raw.length > shown.length ? readInsertion?.(raw, end) : null;
        let before = read ? Math.min(read.before, max) : digitsOf(raw.slice(0, end), max).length;
        let next = read ? digitsOf(read.digits, max) : digitsOf(raw, max);
        // Deleting a separator ("-", ") ") deletes the digit before it, as the applicant meant.
        if (!read && next === digits && raw.length < shown.length && before > 0) {
          next = next.slice(0, before - 1) + next.slice(before);
          before -= 1;
        }
        const formatted = formatDigits(next, pattern);
        caret.current = afterDigits(formatted, before);
        onText(formatted);
      }}
    />
  );
}
