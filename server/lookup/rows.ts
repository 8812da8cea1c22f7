/**
 * One CSV row of a lookup list, checked with zod and turned into an entry: the display label, the
 * sub-text and the detail record's fields. States and countries are stored as the definition's option
 * values (state names, three-letter country codes); two-letter US state codes are accepted too.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { LookupCategoryName } from '../../contract';
import type { OptionEntry } from '../../runtime';
import type { LookupEntry } from './search';
import { resolveUsZip, usStateName } from './zip';

export interface OptionSources {
  /** SPEC 3.9 stateAndProvince (value equals label). */
  readonly states: readonly OptionEntry[];
  /** SPEC 3.9 countries (three-letter codes). */
  readonly countries: readonly OptionEntry[];
}

const text = (max: number) => z.string().trim().max(max, `at most ${max} characters`);
const optionalText = (max: number) => text(max).optional().default('');

const institutionRow = z.object({
  ceeb: z
    .string()
    .trim()
    .regex(/^\d{4,6}$/, 'the CEEB code must be 4 to 6 digits'),
  name: text(150).min(1, 'the name is missing'),
  address_line_1: optionalText(150),
  city: optionalText(100),
  state: optionalText(60),
  zip: optionalText(10),
  country: optionalText(60),
});

const addressRow = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'the id may hold letters, digits, - and _ (at most 64)')
    .optional(),
  address_line_1: text(150).min(1, 'address_line_1 is missing'),
  address_line_2: optionalText(150),
  city: optionalText(100),
  state: optionalText(60),
  zip: optionalText(10),
  country: optionalText(60),
});

export const CSV_COLUMNS: Record<LookupCategoryName, readonly string[]> = {
  hs_ceeb: Object.keys(institutionRow.shape),
  college_ceeb: Object.keys(institutionRow.shape),
  address: Object.keys(addressRow.shape),
};

export class RowError extends Error {}

function findOption(list: readonly OptionEntry[], value: string): OptionEntry | undefined {
  const folded = value.toLowerCase();
  return list.find(
    (entry) =>
      entry.value !== '' &&
      (entry.value.toLowerCase() === folded || entry.label.toLowerCase() === folded),
  );
}

function country(value: string, lists: OptionSources): OptionEntry {
  const wanted = value === '' || /^(us|usa|united states)$/i.test(value) ? 'USA' : value;
  const found = findOption(lists.countries, wanted);
  if (!found) throw new RowError(`unknown country "${value}"`);
  return found;
}

function state(value: string, lists: OptionSources): OptionEntry | null {
  if (value === '') return null;
  const found =
    findOption(lists.states, value) ??
    (/^[A-Za-z]{2}$/.test(value) ? findOption(lists.states, usStateName(value) ?? '') : undefined);
  if (!found) throw new RowError(`unknown state or province "${value}"`);
  return found;
}

function place(fields: Record<string, string>, countryLabel: string): string {
  const region = fields.state || (fields.country === 'USA' ? '' : countryLabel);
  return [fields.city, region].filter(Boolean).join(', ');
}

function problems(error: z.ZodError): string {
  return error.issues
    .map((issue) =>
      issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ');
}

/** Checks one row (already keyed by column) and returns its entry; throws RowError with the reasons. */
export function entryFromRow(
  category: LookupCategoryName,
  row: Record<string, string>,
  lists: OptionSources,
): LookupEntry {
  if (category === 'address') {
    const parsed = addressRow.safeParse(row);
    if (!parsed.success) throw new RowError(problems(parsed.error));
    const r = parsed.data;
    const c = country(r.country, lists);
    let city = r.city;
    let st = r.state;
    if (c.value === 'USA') {
      if (!/^\d{5}(-\d{4})?$/.test(r.zip))
        throw new RowError('a US address needs a ZIP code of 5 digits (or ZIP+4)');
      if (city === '' || st === '') {
        const resolved = resolveUsZip(r.zip);
        if (!resolved) throw new RowError(`unknown ZIP code "${r.zip}"; give city and state`);
        city ||= resolved.city;
        st ||= resolved.state;
      }
    }
    const s = state(st, lists);
    const fields: Record<string, string> = {
      address_line_1: r.address_line_1,
      address_line_2: r.address_line_2,
      city,
      state: s?.value ?? '',
      zip: r.zip,
      country: c.value,
    };
    const id =
      r.id ??
      `a${createHash('sha256')
        .update(
          JSON.stringify([
            fields.address_line_1,
            fields.address_line_2,
            fields.zip,
            fields.country,
          ]),
        )
        .digest('hex')
        .slice(0, 16)}`;
    const sub = [place(fields, c.label), fields.zip].filter(Boolean).join(' ');
    return { id, text: fields.address_line_1 as string, subText: sub, fields };
  }
  const parsed = institutionRow.safeParse(row);
  if (!parsed.success) throw new RowError(problems(parsed.error));
  const r = parsed.data;
  const c = country(r.country, lists);
  const s = state(r.state, lists);
  const fields: Record<string, string> = {
    ceeb: r.ceeb,
    name: r.name,
    address_line_1: r.address_line_1,
    city: r.city,
    state: s?.value ?? '',
    zip: r.zip,
    country: c.value,
  };
  return { id: r.ceeb, text: r.name, subText: place(fields, c.label), fields };
}

/** The `_desc` labels of the coded fields (SPEC 3.7): the option list's label of state and country. */
export function withDescriptions(
  fields: Readonly<Record<string, string>>,
  lists: OptionSources,
): Record<string, string> {
  const out: Record<string, string> = { ...fields };
  if (fields.state !== undefined)
    out.state_desc = fields.state ? (findOption(lists.states, fields.state)?.label ?? '') : '';
  if (fields.country !== undefined)
    out.country_desc = fields.country
      ? (findOption(lists.countries, fields.country)?.label ?? '')
      : '';
  return out;
}
