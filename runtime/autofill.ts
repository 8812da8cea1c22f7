/**
 * The browser's autofill hint a question may carry (`autoComplete`, the HTML `autocomplete`
 * attribute; WCAG 2.1 1.3.5 "Identify Input Purpose"), checked against the grammar of the HTML
 * standard's "autofill detail tokens" when a definition loads, so a misspelt token ("postal_code",
 * "phone") fails with its path instead of silently filling nothing (D198):
 *
 *   "on" | "off" | [section-*] [shipping|billing] (field | [home|work|mobile|fax|pager] contact) [webauthn]
 *
 * Tokens are lowercase here (the attribute is case-insensitive; a definition writes one spelling).
 */

/** Field names that are not contact details (HTML "autofill field names", in the standard's order). */
const FIELD_NAMES = [
  'name',
  'honorific-prefix',
  'given-name',
  'additional-name',
  'family-name',
  'honorific-suffix',
  'nickname',
  'organization-title',
  'username',
  'new-password',
  'current-password',
  'one-time-code',
  'organization',
  'street-address',
  'address-line1',
  'address-line2',
  'address-line3',
  'address-level4',
  'address-level3',
  'address-level2',
  'address-level1',
  'country',
  'country-name',
  'postal-code',
  'cc-name',
  'cc-given-name',
  'cc-additional-name',
  'cc-family-name',
  'cc-number',
  'cc-exp',
  'cc-exp-month',
  'cc-exp-year',
  'cc-csc',
  'cc-type',
  'transaction-currency',
  'transaction-amount',
  'language',
  'bday',
  'bday-day',
  'bday-month',
  'bday-year',
  'sex',
  'url',
  'photo',
] as const;

/** Contact field names: the only ones a contact type (`home`, `mobile`, …) may precede. */
const CONTACT_FIELD_NAMES = [
  'tel',
  'tel-country-code',
  'tel-national',
  'tel-area-code',
  'tel-local',
  'tel-local-prefix',
  'tel-local-suffix',
  'tel-extension',
  'email',
  'impp',
] as const;

const CONTACT_TYPES = ['home', 'work', 'mobile', 'fax', 'pager'] as const;

const alternatives = (words: readonly string[]) => words.join('|');

/** The whole grammar, as one pattern (it also goes into the definition's JSON Schema). */
export const AUTOFILL_DETAIL = new RegExp(
  '^(?:on|off|' +
    '(?:section-[^\\s]+ )?(?:(?:shipping|billing) )?' +
    `(?:(?:${alternatives(FIELD_NAMES)})|(?:(?:${alternatives(CONTACT_TYPES)}) )?(?:${alternatives(CONTACT_FIELD_NAMES)}))` +
    '(?: webauthn)?)$',
);

export const AUTOFILL_DETAIL_MESSAGE =
  'must be an HTML autofill detail: "off", or an autofill field name such as "given-name", ' +
  '"postal-code" or "mobile tel-national", optionally after "section-<name>" and "shipping"/"billing"';
