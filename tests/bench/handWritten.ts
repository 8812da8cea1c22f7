/**
 * The institution's checks written by hand, as a developer would without a runtime: the baseline
 * the runtime's full validation is measured against. The bench asserts both give identical errors.
 */
import { messages as m } from '../../definitions/messages';

const PHONE = /^\([2-9]\d{2}\) \d{3}-\d{4}$/;
const INTERNATIONAL = /^\+?[0-9][0-9 ().-]{5,22}$/;
const SSN = /^(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}$/;
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

type A = Record<string, unknown>;
const empty = (v: unknown) =>
  v === undefined || v === null || v === '' || v === '--' || v === false;
const blank = (v: unknown) => empty(v) || (typeof v === 'string' && v.trim() === '');
const text = (v: unknown) =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
const get = (a: A, k: string) => (Object.prototype.hasOwnProperty.call(a, k) ? a[k] : undefined);

function isoDate(s: string): boolean {
  const match = ISO.exec(s);
  if (!match) return false;
  const y = Number(match[1]);
  const mo = Number(match[2]);
  const d = Number(match[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days =
    mo === 2
      ? (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
        ? 29
        : 28
      : [4, 6, 9, 11].includes(mo)
        ? 30
        : 31;
  return d <= days;
}

export function handWrittenValidate(
  a: A,
  now: Date,
  addAnother: Record<string, number>,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => {
    const list = (errors[key] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  const failsPattern = (key: string, pattern: RegExp) => {
    const v = get(a, key);
    if (empty(v)) return false;
    const t = text(v);
    return t === null || !pattern.test(t);
  };
  const outOfRange = (key: string, min: number, max: number, step: number) => {
    const v = get(a, key);
    if (empty(v)) return false;
    const t = text(v);
    if (t === null || !DECIMAL.test(t.trim())) return true;
    const n = Number(t);
    if (n < min || n > max) return true;
    const steps = (n - min) / step;
    return Math.abs(steps - Math.round(steps)) >= 1e-9;
  };
  const year = now.getFullYear();

  if (blank(get(a, 'first_name'))) add('first_name', m.firstName);
  if (blank(get(a, 'last_name'))) add('last_name', m.lastName);
  if (failsPattern('email_address', EMAIL)) add('email_address', m.email);
  const birth = get(a, 'birth_date');
  if (blank(birth)) add('birth_date', m.birthDate.required);
  const birthText = text(birth);
  if (!empty(birth) && (birthText === null || !isoDate(birthText)))
    add('birth_date', m.birthDate.invalid);
  if (birthText !== null && isoDate(birthText)) {
    if (birthText < `${year - 100}-01-01`) add('birth_date', m.birthDate.tooOld);
    else if (birthText > `${year - 13}-12-31`) add('birth_date', m.birthDate.tooYoung);
  }
  if (blank(get(a, 'gender'))) add('gender', m.gender);

  if (failsPattern('phone_home', PHONE)) add('phone_home', m.phone.validHome);
  if (
    empty(get(a, 'phone_mobile')) &&
    empty(get(a, 'phone_international')) &&
    empty(get(a, 'optin_sms_ind')) &&
    blank(get(a, 'phone_home'))
  ) {
    add('phone_home', m.phone.oneRequired);
  }
  if (failsPattern('phone_mobile', PHONE)) add('phone_mobile', m.phone.validMobile);
  if (!empty(get(a, 'optin_sms_ind')) && blank(get(a, 'phone_mobile')))
    add('phone_mobile', m.phone.optIn);
  if (failsPattern('phone_international', INTERNATIONAL))
    add('phone_international', m.internationalPhone);

  const country = get(a, 'country');
  if (blank(country)) add('country', m.address.country);
  if (blank(get(a, 'address_line_1'))) add('address_line_1', m.address.line1);
  if (blank(get(a, 'city'))) add('city', m.address.city);
  if ((country === 'USA' || country === 'CAN') && blank(get(a, 'state')))
    add('state', m.address.state);
  if (country === 'USA') {
    if (blank(get(a, 'zip'))) add('zip', m.address.zip);
    const zip = get(a, 'zip');
    if (!empty(zip) && (text(zip) === null || text(zip)!.length < 5))
      add('zip', m.address.zipLength);
  }

  const same = get(a, 'mailing_addr_same_as_perm_addr');
  if (blank(same)) add('mailing_addr_same_as_perm_addr', m.mailing.same);
  if (same === 'N') {
    const date = get(a, 'mailing_addr_effective_date');
    if (blank(date)) add('mailing_addr_effective_date', m.mailing.effectiveDate);
    const dateText = text(date);
    if (!empty(date) && (dateText === null || !isoDate(dateText)))
      add('mailing_addr_effective_date', m.mailing.invalidDate);
    if (dateText !== null && isoDate(dateText)) {
      if (dateText < `${year - 3}-01-01`)
        add('mailing_addr_effective_date', m.mailing.minYear.replace('{year}', String(year - 3)));
      else if (dateText > `${year + 4}-12-31`)
        add('mailing_addr_effective_date', m.mailing.maxYear.replace('{year}', String(year + 4)));
    }
  }

  const type = get(a, 'citizenship_type');
  if (blank(type)) add('citizenship_type', m.citizenship.type);
  const typeText = type === undefined || type === null ? '' : String(type);
  if ((typeText === '1' || typeText === '2') && failsPattern('ssn', SSN))
    add('ssn', m.citizenship.ssn);
  if (typeText === '2') {
    if (blank(get(a, 'birth_country'))) add('birth_country', m.citizenship.birthCountry);
    if (blank(get(a, 'alien_registration_number')))
      add('alien_registration_number', m.citizenship.alienRegistration);
  } else if (typeText === '3') {
    if (blank(get(a, 'birth_country'))) add('birth_country', m.citizenship.birthCountry);
    if (blank(get(a, 'citizenship'))) add('citizenship', m.citizenship.citizenship);
    if (blank(get(a, 'citizenship_visa_status')))
      add('citizenship_visa_status', m.citizenship.visa);
  }

  const parentSlots = ['parent_', 'parent_2_'];
  parentSlots.forEach((prefix, index) => {
    if (
      index > 0 &&
      !(index < Math.min(Math.max(addAnother.parent ?? 1, 1), 2)) &&
      !PARENT_KEYS.some((k) => !empty(get(a, prefix + k)))
    )
      return;
    if (failsPattern(`${prefix}email_address`, EMAIL))
      add(`${prefix}email_address`, m.parent.email[index]!);
    if (failsPattern(`${prefix}phone`, PHONE)) add(`${prefix}phone`, m.parent.phone[index]!);
  });

  if (blank(get(a, 'entry_term'))) add('entry_term', m.entryTerm);
  if (blank(get(a, 'hs_name'))) add('hs_name', m.school);
  if (failsPattern('counselor_email_address', EMAIL))
    add('counselor_email_address', m.counselorEmail);

  if (String(get(a, 'act_taken')) === 'Y') {
    for (const [key, section] of ACT) if (outOfRange(key, 1, 36, 1)) add(key, m.act(section));
  }
  if (String(get(a, 'sat_taken')) === 'Y') {
    if (outOfRange('sat_score_reading_writing', 200, 800, 10))
      add('sat_score_reading_writing', m.satSection('Evidence-Based Reading and Writing'));
    if (outOfRange('sat_score_math', 200, 800, 10)) add('sat_score_math', m.satSection('Math'));
    if (outOfRange('sat_score_composite', 400, 1600, 1)) add('sat_score_composite', m.satTotal);
  }
  if (String(get(a, 'clt_taken')) === 'Y') {
    for (const [key, section] of CLT)
      if (outOfRange(key, 0, 40, 1)) add(key, m.cltSection(section));
    if (outOfRange('clt_score', 0, 120, 1)) add('clt_score', m.cltTotal);
  }

  const conviction = get(a, 'conviction');
  if (blank(conviction)) add('conviction', m.conviction);
  if (String(conviction) === 'Y' && blank(get(a, 'conviction_comment')))
    add('conviction_comment', m.convictionComment);
  const suspended = get(a, 'suspended');
  if (blank(suspended)) add('suspended', m.suspended);
  if (String(suspended) === 'Y' && blank(get(a, 'suspended_comment')))
    add('suspended_comment', m.suspendedComment);
  if (blank(get(a, 'counselor_waiver_request'))) add('counselor_waiver_request', m.waiver);
  // Questions' own maximum lengths (the bench's answers hold no over-long text, so whether the
  // guarded ones are shown does not change the errors; the work is the same).
  for (const [key, max] of MAX_LENGTHS) {
    const t = text(get(a, key));
    if (t !== null && t.length > max) add(key, `${key} must be at most ${max} characters`);
  }
  const agree = get(a, 'legal_agree');
  if (agree !== true && agree !== 'true') add('legal_agree', m.legalAgree);
  return errors;
}

const PARENT_KEYS = [
  'relationship',
  'relationship_desc',
  'prefix',
  'prefix_desc',
  'first_name',
  'last_name',
  'email_address',
  'phone',
  'military_relation_active',
  'military_relation_active_desc',
  'addr_same_as_perm_addr',
  'country',
  'country_desc',
  'address_line_1',
  'address_line_2',
  'city',
  'state',
  'state_desc',
  'zip',
];
const MAX_LENGTHS: [string, number][] = [
  ['email_address', 254],
  ['phone_international', 25],
  ['zip', 10],
  ['mailing_zip', 10],
  ['alien_registration_number', 12],
  ['parent_email_address', 254],
  ['parent_zip', 10],
  ['parent_2_email_address', 254],
  ['parent_2_zip', 10],
  ['hs_zip', 10],
  ['hs_gpa', 6],
  ['counselor_email_address', 254],
  ['college_zip', 10],
  ['college_2_zip', 10],
  ['college_3_zip', 10],
  ['conviction_comment', 7000],
  ['suspended_comment', 7000],
];
const ACT: [string, string][] = [
  ['act_score_englih', 'English'],
  ['act_score_math', 'Math'],
  ['act_score_reading', 'Reading'],
  ['act_score_science', 'Science Reasoning'],
  ['act_score_composite', 'Composite'],
];
const CLT: [string, string][] = [
  ['clt_verbal', 'Verbal Reasoning'],
  ['clt_grammar', 'Grammar/Writing'],
  ['clt_reasoning', 'Quantitative Reasoning'],
];
