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
}: AddressOptions): Node[] {
  const country = `${prefix}country`;
  const scoped = (comparison: Comparison) => (slotScoped ? inSlot(comparison) : comparison);
  const inUsOrCanada = scoped(isIn(country, ['USA', 'CAN']));
  const inUs = scoped(eq(country, 'USA'));
  return [
    {
      kind: 'select',
      key: country,
      label: 'Country',
      options: 'countries',
      rules: isRequired ? [required(messages.country)] : [],
    },
    {
      kind: 'lookup',
      key: `${prefix}address_line_1`,
      label: 'Address',
      help: 'Start typing your street address, then choose it from the list.',
      category: 'address',
      prefix,
      fills: ['address_line_1', 'address_line_2', 'city', 'state', 'zip', 'country'],
      rules: isRequired ? [required(messages.line1)] : [],
    },
    {
      kind: 'text',
      key: `${prefix}address_line_2`,
      label: 'Address Line 2',
      help: 'Apartment, suite or unit, if any.',
    },
    {
      kind: 'text',
      key: `${prefix}city`,
      label: 'City',
      rules: isRequired ? [required(messages.city)] : [],
    },
    {
      kind: 'select',
      key: `${prefix}state`,
      label: 'State/Province',
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
      autoComplete: 'postal-code',
      rules: isRequired
        ? [
            required(messages.zip, inUs),
            { kind: 'minLength', min: 5, message: messages.zipLength, when: inUs },
          ]
        : [],
    },
  ];
}
