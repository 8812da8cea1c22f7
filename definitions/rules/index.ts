/**
 * Named rules: reusable rule data for the institution's definition. Cross-field rules are data too
 * (a `required` rule with a compound `when`), so client and server run exactly the same checks.
 */
import type { Condition, Message, Rule } from '../../runtime';
import { all, answered, eq, notAnswered } from './conditions';

export * from './conditions';

/** SPEC 5.3: US phone format (XXX) XXX-XXXX with an area code starting 2–9. */
export const US_PHONE_PATTERN = '^\\([2-9]\\d{2}\\) \\d{3}-\\d{4}$';

/** SPEC 5.3: ddd-dd-dddd; area 000, 666 and 9xx, group 00 and serial 0000 are never issued. */
export const SSN_PATTERN = '^(?!000|666|9\\d\\d)\\d{3}-(?!00)\\d{2}-(?!0000)\\d{4}$';

/** Numbers written with optional + and separators, for international phone numbers. */
export const INTERNATIONAL_PHONE_PATTERN = '^\\+?[0-9][0-9 ().-]{5,22}$';

export const required = (message?: Message, when?: Condition): Rule => ({
  kind: 'required',
  ...(message ? { message } : {}),
  ...(when ? { when } : {}),
});
export const mustBeTrue = (message: Message): Rule => ({ kind: 'mustBeTrue', message });
export const pattern = (source: string, message: Message): Rule => ({
  kind: 'pattern',
  pattern: source,
  message,
});
export const email = (message: Message): Rule => ({ kind: 'email', message });
export const validDate = (message: Message): Rule => ({ kind: 'date', message });
export const usPhone = (message: Message): Rule => pattern(US_PHONE_PATTERN, message);
export const score = (min: number, max: number, message: Message, step = 1): Rule => ({
  kind: 'range',
  min,
  max,
  step,
  message,
});

export interface PhoneBlockMessages {
  readonly validHome: string;
  readonly validMobile: string;
  readonly optIn: string;
  readonly oneRequired: string;
}

/**
 * The reusable phone block (SPEC 5.3): home and cell formats; a cell number when text updates are
 * wanted; otherwise, with no cell number, a home or international number.
 */
export function phoneBlockRules(
  keys: { home: string; mobile: string; international: string; optIn: string },
  messages: PhoneBlockMessages,
) {
  return {
    home: [
      usPhone(messages.validHome),
      required(
        messages.oneRequired,
        all(notAnswered(keys.mobile), notAnswered(keys.international), notAnswered(keys.optIn)),
      ),
    ],
    mobile: [usPhone(messages.validMobile), required(messages.optIn, answered(keys.optIn))],
  } satisfies Record<string, Rule[]>;
}

/** Yes/no helpers for radio-driven content. */
export const yes = (key: string) => eq(key, 'Y');
