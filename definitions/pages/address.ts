import type { Comparison, Node } from '../../runtime';
import type { messages } from '../messages';
import { eq, inSlot, isIn, required } from '../rules';

interface AddressOptions {
  /** The key prefix: '' for the permanent address, 'mailing_' for the mailing address. */
  readonly prefix: string;
  /** SPEC 5.3 rules of the permanent address. */
  readonly required: boolean;
  readonly messages: typeof messages.address;
  /** Inside a repeat slot (parents): conditions read the slot's own country. */
  readonly inSlot?: boolean;
  /**
   * Whose address it is, for the browser's autofill (D198): `{}` the applicant's, `{ section }`
   * the applicant's other address (`section-mailing address-line1`: filled apart from the first);
   * absent, someone else's (a parent's), which carries no hint.
   */
  readonly autofill?: { readonly section?: string };
}

/**
 * An address block with autocomplete (SPEC 4.9, category address): country first (it decides the
 * state list), then the street found by lookup, which fills the other fields.
 */
export function addressFields({
  prefix,
  required: isRequired,
  messages,
  inSlot: slotScoped,
  autofill,
}: AddressOptions): Node[] {
  const country = `${prefix}country`;
  const hint = (field: string) =>
    autofill
      ? { autoComplete: autofill.section ? `section-${autofill.section} ${field}` : field }
      : {};
  const scoped = (comparison: Comparison) => (slotScoped ? inSlot(comparison) : comparison);
  const inUsOrCanada = scoped(isIn(country, ['USA', 'CAN']));
  const inUs = scoped(eq(country, 'USA'));
  return [
    {
      kind: 'select',
      key: country,
      label: 'Country',
      ...hint('country-name'),
      options: 'countries',
      rules: isRequired ? [required(messages.country)] : [],
    },
    {
      kind: 'lookup',
      key: `${prefix}address_line_1`,
      label: 'Address',
      help: 'Start typing your street address, then choose it from the list.',
      category: 'address',
      ...hint('address-line1'),
      prefix,
      fills: ['address_line_1', 'address_line_2', 'city', 'state', 'zip', 'country'],
      rules: isRequired ? [required(messages.line1)] : [],
    },
    {
      kind: 'text',
      key: `${prefix}address_line_2`,
      label: 'Address Line 2',
      ...hint('address-line2'),
      help: 'Apartment, suite or unit, if any.',
    },
    {
      kind: 'text',
      key: `${prefix}city`,
      label: 'City',
      ...hint('address-level2'),
      rules: isRequired ? [required(messages.city)] : [],
    },
    {
      kind: 'select',
      key: `${prefix}state`,
      label: 'State/Province',
      ...hint('address-level1'),
      options: 'stateAndProvince',
      conditional: {
        category: 'displayAndOptions',
        control: slotScoped ? { valueKey: country, scope: 'slot' } : { valueKey: country },
        optionsByValue: { USA: 'usStates', CAN: 'canadianProvinces' },
      },
      rules: isRequired ? [required(messages.state, inUsOrCanada)] : [],
    },
    {
      kind: 'text',
      key: `${prefix}zip`,
      label: 'ZIP/Postal Code',
      maxLength: 10,
      ...hint('postal-code'),
      rules: isRequired
        ? [
            required(messages.zip, inUs),
            { kind: 'minLength', min: 5, message: messages.zipLength, when: inUs },
          ]
        : [],
    },
  ];
}
