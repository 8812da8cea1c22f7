/**
 * Autofill (WCAG 2.1 AA 1.3.5, D198): every question that asks for the applicant's own data carries
 * its HTML autofill token in every college's definition, so a phone can fill it; nobody else's data
 * (a parent's, a school's, a counselor's) carries one, so a browser does not offer the applicant's
 * own name or address there; and a token outside the HTML grammar is refused when a file loads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDefinition } from '../../runtime';
import { TENANTS_DIR } from '../../scripts/tenantFiles';

/** The applicant's address fields, by key suffix (after `prefix`). */
const address = (prefix: string, section: string) => ({
  [`${prefix}country`]: `${section}country-name`,
  [`${prefix}address_line_1`]: `${section}address-line1`,
  [`${prefix}address_line_2`]: `${section}address-line2`,
  [`${prefix}city`]: `${section}address-level2`,
  [`${prefix}state`]: `${section}address-level1`,
  [`${prefix}zip`]: `${section}postal-code`,
});

/** The applicant's own data, outside any repeat, and its token. */
const APPLICANT_TOKENS: Readonly<Record<string, string>> = {
  first_name: 'given-name',
  middle_name: 'additional-name',
  last_name: 'family-name',
  preferred_name: 'nickname',
  email_address: 'email',
  birth_date: 'bday',
  gender: 'sex',
  phone_home: 'home tel-national',
  phone_mobile: 'mobile tel-national',
  phone_international: 'tel',
  ...address('', ''),
  // The second address of the same person: its own section, so it is filled apart from the first.
  ...address('mailing_', 'section-mailing '),
};

/**
 * Keys that look like personal data but are no purpose of 1.3.5's list, or are not the
 * applicant's: a new key that looks like one must be put in one table or the other.
 */
const NOT_AUTOFILLED = new Set([
  'birth_country',
  'fb_name',
  'twitter_name',
  'hs_name',
  'hs_address_line_1',
  'hs_city',
  'hs_state',
  'hs_zip',
  'hs_country',
  'counselor_first_name',
  'counselor_last_name',
  'counselor_email_address',
]);

const LOOKS_PERSONAL = /(^|_)(name|email|phone|city|state|zip|country|address|birth|gender)(_|$)/;

interface Found {
  readonly key: string;
  readonly kind: string;
  /** The repeats around the question (a parent, a college, an activity): someone else's data. */
  readonly repeats: readonly string[];
  readonly autoComplete: string | undefined;
}

/** Every question of a definition file, wherever it sits (sections, triggers, radio content, tabs). */
function questions(node: unknown, repeats: readonly string[] = []): Found[] {
  if (Array.isArray(node)) return node.flatMap((child) => questions(child, repeats));
  if (typeof node !== 'object' || node === null) return [];
  const record = node as Record<string, unknown>;
  const inside = record.kind === 'repeat' ? [...repeats, String(record.id)] : repeats;
  const own: Found[] =
    typeof record.key === 'string' && typeof record.label === 'string' && record.kind !== 'trigger'
      ? [
          {
            key: record.key,
            kind: String(record.kind),
            repeats,
            autoComplete: record.autoComplete as string | undefined,
          },
        ]
      : [];
  return [...own, ...Object.values(record).flatMap((child) => questions(child, inside))];
}

const colleges = readdirSync(TENANTS_DIR).filter((name) => name !== 'schemas');
const definitionOf = (college: string) =>
  JSON.parse(readFileSync(path.join(TENANTS_DIR, college, 'definition.json'), 'utf8')) as {
    pages: unknown;
  };

describe('autofill tokens in every college’s definition (WCAG 1.3.5)', () => {
  it('finds both colleges', () => {
    expect(colleges).toEqual(expect.arrayContaining(['northfield', 'riverside']));
  });

  it.each(colleges)('%s: the applicant’s own data carries its token', (college) => {
    const found = questions(definitionOf(college).pages).filter(
      (question) => question.repeats.length === 0 && question.key in APPLICANT_TOKENS,
    );
    expect(found.length).toBeGreaterThan(0);
    for (const question of found) {
      expect({ key: question.key, autoComplete: question.autoComplete }).toEqual({
        key: question.key,
        autoComplete: APPLICANT_TOKENS[question.key],
      });
    }
  });

  it.each(colleges)('%s: nobody else’s data carries a token', (college) => {
    const others = questions(definitionOf(college).pages).filter(
      (question) => question.repeats.length > 0 || !(question.key in APPLICANT_TOKENS),
    );
    const tokens = others
      .filter((question) => question.autoComplete !== undefined && question.autoComplete !== 'off')
      .map(
        (question) => `${[...question.repeats, question.key].join('/')}: ${question.autoComplete}`,
      );
    expect(tokens).toEqual([]);
  });

  it.each(colleges)('%s: every field that looks personal is decided', (college) => {
    const undecided = questions(definitionOf(college).pages)
      .filter((question) => question.repeats.length === 0 && LOOKS_PERSONAL.test(question.key))
      .map((question) => question.key)
      .filter((key) => !(key in APPLICANT_TOKENS) && !NOT_AUTOFILLED.has(key));
    expect(undecided).toEqual([]);
  });

  it('refuses a token outside the HTML grammar, naming where it is', () => {
    const withToken = (autoComplete: string) => ({
      id: 't',
      title: 'T',
      version: 1,
      defaultRoute: '/p',
      optionLists: {},
      pages: [
        {
          id: 'p',
          path: '/p',
          title: 'P',
          children: [{ kind: 'phone', key: 'phone_mobile', label: 'Cell', autoComplete }],
        },
      ],
    });
    for (const good of [
      'off',
      'tel',
      'mobile tel-national',
      'section-mailing postal-code',
      'section-mailing shipping address-line1',
      'email webauthn',
    ])
      expect(() => loadDefinition(withToken(good))).not.toThrow();
    for (const bad of ['phone', 'postal_code', 'mobile given-name', 'Tel', 'tel mobile', ''])
      expect(() => loadDefinition(withToken(bad)), bad).toThrow(/autoComplete/);
  });
});
