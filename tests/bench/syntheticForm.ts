/**
 * A synthetic form of the shape an outside benchmark measured (D162): 14 blocks of 22 questions,
 * 308 question keys and 630 checks (required, conditional required, lengths, e-mails, phones, score
 * ranges, yes/no option lists), with its own hand-written loop of the same checks and two sets of
 * answers: every key valid, and 54 keys invalid. The bench asserts both engines give identical errors.
 */
import { withinLength, type Definition, type Node, type Rule } from '../../runtime';
import { atLeastLength } from '../../runtime/internal';

export const BLOCKS = 14;

export const PHONE = /^\([2-9]\d{2}\) \d{3}-\d{4}$/;
export const CODE = /^[A-Z]{2}-\d{4}$/;
export const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** Every message of the form, one home for the definition and the hand-written loop. */
const msg = {
  lastName: 'Enter your last name.',
  nameShort: 'A name needs at least 2 characters.',
  email: 'Enter a valid e-mail address.',
  altEmail: 'Enter a second e-mail address.',
  phone: 'Enter a phone number as (555) 555-5555.',
  phoneRequired: 'Enter a phone number.',
  altPhone: 'Enter another phone number when you do not accept texts.',
  yesNo: 'Answer yes or no.',
  mobile: 'Enter a mobile number to receive texts.',
  score: (n: number) => `Enter score ${n} within its range.`,
  scoreRequired: (n: number) => `Enter score ${n}.`,
  code: 'Enter a code such as AB-1234.',
  codeRequired: 'Enter your code.',
  essayShort: 'Write at least 20 characters.',
  comment: 'Explain your answer.',
  cityShort: 'A city needs at least 2 characters.',
  zipShort: 'A ZIP code has at least 5 digits.',
  country: 'Choose a country.',
  agree: 'You must agree.',
} as const;
const tooLongMessage = (key: string, max: number) => `${key} must be at most ${max} characters`;
const requiredDefault = (key: string) => `${key} is a required field`;

export const SCORES = [
  { min: 0, max: 100, step: 1 },
  { min: 0, max: 100, step: 1 },
  { min: 200, max: 800, step: 10 },
  { min: 1, max: 4 },
] as const;

const yes = (key: string) => ({ valueKey: key, operator: 'equals' as const, target: 'Y' });
const no = (key: string) => ({ valueKey: key, operator: 'equals' as const, target: 'N' });
const required = (message?: string, when?: Rule['when']): Rule => ({
  kind: 'required',
  ...(message ? { message } : {}),
  ...(when ? { when } : {}),
});

function block(k: number): Node[] {
  const p = `b${k}_`;
  const text = (key: string, maxLength: number, rules: Rule[]): Node => ({
    kind: 'text',
    key: p + key,
    label: key,
    maxLength,
    rules,
  });
  const phone = (key: string, rules: Rule[]): Node => ({
    kind: 'phone',
    key: p + key,
    label: key,
    rules: [...rules, { kind: 'pattern', pattern: PHONE.source, message: msg.phone }],
  });
  const yesNo = (key: string, content?: Node[]): Node => ({
    kind: 'radio',
    key: p + key,
    label: key,
    options: 'yesNo',
    description: false,
    rules: [required(msg.yesNo)],
    ...(content ? { content: { Y: content } } : {}),
  });
  const scores = SCORES.map(({ min, max, ...step }, i): Node => ({
    kind: 'text',
    key: `${p}score_${i + 1}`,
    label: `Score ${i + 1}`,
    rules: [
      required(msg.scoreRequired(i + 1)),
      { kind: 'range', min, max, ...step, message: msg.score(i + 1) },
    ],
  }));
  return [
    text('first_name', 45, [required()]),
    text('last_name', 45, [
      required(msg.lastName),
      { kind: 'minLength', min: 2, message: msg.nameShort },
    ]),
    text('middle_name', 45, []),
    text('email', 254, [required(), { kind: 'email', message: msg.email }]),
    text('alt_email', 254, [
      required(msg.altEmail, yes(`${p}flag`)),
      { kind: 'email', message: msg.email },
    ]),
    phone('phone', [required(msg.phoneRequired)]),
    phone('alt_phone', [required(msg.altPhone, no(`${p}sms`))]),
    yesNo('sms'),
    phone('mobile', [required(msg.mobile, yes(`${p}sms`))]),
    yesNo('has_scores', scores),
    text('code', 12, [
      { kind: 'pattern', pattern: CODE.source, message: msg.code },
      required(msg.codeRequired, yes(`${p}has_scores`)),
    ]),
    {
      kind: 'textarea',
      key: `${p}essay`,
      label: 'Essay',
      maxLength: 1500,
      rules: [required(), { kind: 'minLength', min: 20, message: msg.essayShort }],
    },
    yesNo('flag'),
    {
      kind: 'textarea',
      key: `${p}comment`,
      label: 'Comment',
      maxLength: 500,
      rules: [required(msg.comment, yes(`${p}flag`))],
    },
    text('city', 45, [required(), { kind: 'minLength', min: 2, message: msg.cityShort }]),
    text('zip', 10, [required(), { kind: 'minLength', min: 5, message: msg.zipShort }]),
    {
      kind: 'select',
      key: `${p}country`,
      label: 'Country',
      options: 'countries',
      description: false,
      rules: [required(msg.country)],
    },
    {
      kind: 'checkbox',
      key: `${p}agree`,
      label: 'I agree',
      rules: [{ kind: 'mustBeTrue', message: msg.agree }],
    },
  ];
}

const blank = { value: '--', label: '--' };
const blocks = Array.from({ length: BLOCKS }, (_, i) => i + 1);
const pageOf = (first: number, last: number) => ({
  id: `part_${first}`,
  path: `/part-${first}`,
  title: `Blocks ${first} to ${last}`,
  children: blocks
    .filter((k) => k >= first && k <= last)
    .map((k): Node => ({
      kind: 'section',
      id: `block_${k}`,
      title: `Block ${k}`,
      children: block(k),
    })),
});

export const syntheticDefinitionData: Definition = {
  id: 'synthetic-bench',
  title: 'Synthetic form',
  version: 1,
  defaultRoute: '/part-1',
  optionLists: {
    yesNo: [blank, { value: 'Y', label: 'Yes' }, { value: 'N', label: 'No' }],
    countries: [blank, { value: 'USA', label: 'United States' }, { value: 'CAN', label: 'Canada' }],
  },
  pages: [pageOf(1, 5), pageOf(6, 10), pageOf(11, BLOCKS)],
};

/** Every key valid; some text holds accents, combining marks and emoji (grapheme-counted lengths). */
export const syntheticValid: Record<string, unknown> = {};
for (const k of blocks) {
  const p = `b${k}_`;
  Object.assign(syntheticValid, {
    [`${p}first_name`]: k % 3 === 0 ? 'Zoë' : 'Maya',
    [`${p}last_name`]: k % 4 === 0 ? 'Nguyễn' : 'Okafor',
    [`${p}middle_name`]: k % 5 === 0 ? 'Jose\u0301' : '',
    [`${p}email`]: `applicant${k}@example.com`,
    [`${p}alt_email`]: `other${k}@example.org`,
    [`${p}phone`]: '(802) 555-0142',
    [`${p}alt_phone`]: k % 2 === 0 ? '(802) 555-0100' : '',
    [`${p}sms`]: k % 2 === 0 ? 'N' : 'Y',
    [`${p}mobile`]: k % 2 === 0 ? '' : '(802) 555-0199',
    [`${p}has_scores`]: 'Y',
    [`${p}score_1`]: String(60 + k),
    [`${p}score_2`]: '88',
    [`${p}score_3`]: '650',
    [`${p}score_4`]: '3.85',
    [`${p}code`]: 'AB-1234',
    [`${p}essay`]:
      k % 5 === 0
        ? 'Mes grands-parents m’ont appris à cultiver la terre 🌱 et à la respecter.'
        : 'I have wanted to study biology since I was twelve years old, when I first saw a cell.',
    [`${p}flag`]: 'Y',
    [`${p}comment`]: 'Because it matters to me.',
    [`${p}city`]: 'Burlington',
    [`${p}zip`]: '05401',
    [`${p}country`]: 'USA',
    [`${p}agree`]: true,
  });
}

/** What breaks a key: one of the rules above fails (the shown branches stay the same). */
const breakers: [string, unknown][] = [
  ['first_name', ' '],
  ['email', 'maya@'],
  ['phone', '802-555'],
  ['score_1', '101'],
  ['zip', '054'],
  ['last_name', 'Ö'],
  ['essay', 'Too short 🌱'],
  ['score_3', '655'],
  ['code', 'ab-12'],
  ['alt_email', ''],
  ['city', 'X'.repeat(46)],
  ['agree', false],
  ['score_4', 'x'],
  ['country', '--'],
  ['comment', ' '],
  ['middle_name', 'e\u0301'.repeat(46)],
];
export const INVALID_KEYS = 54;

/** 54 keys invalid, spread over the blocks (block by block, cycling through the breakers). */
export const syntheticInvalid: Record<string, unknown> = { ...syntheticValid };
for (let i = 0; i < INVALID_KEYS; i++) {
  const [key, value] = breakers[i % breakers.length]!;
  syntheticInvalid[`b${(i % BLOCKS) + 1}_${key}`] = value;
}

type A = Record<string, unknown>;
const empty = (v: unknown) =>
  v === undefined || v === null || v === '' || v === '--' || v === false;
const isBlank = (v: unknown) => empty(v) || (typeof v === 'string' && v.trim() === '');
const textOf = (v: unknown) =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
const is = (v: unknown, target: string) =>
  v === target ||
  ((typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') &&
    String(v) === target);

// The checks on one answer: a check on a non-empty text answer; a value that is not text fails it.
// Lengths are characters (grapheme clusters) with the code-unit fast path, as the runtime counts.
function tooLong(v: unknown, max: number): boolean {
  if (empty(v)) return false;
  const t = textOf(v);
  return t === null || !withinLength(t, max);
}
function tooShort(v: unknown, min: number): boolean {
  if (empty(v)) return false;
  const t = textOf(v);
  return t === null || !atLeastLength(t, min);
}
function fails(v: unknown, pattern: RegExp): boolean {
  if (empty(v)) return false;
  const t = textOf(v);
  return t === null || !pattern.test(t);
}
function outOfRange(v: unknown, min: number, max: number, step: number | undefined): boolean {
  if (empty(v)) return false;
  const t = textOf(v);
  if (t === null || !DECIMAL.test(t.trim())) return true;
  const n = Number(t);
  if (n < min || n > max) return true;
  if (step === undefined) return false;
  const steps = (n - min) / step;
  return Math.abs(steps - Math.round(steps)) >= 1e-9;
}
function add(errors: Record<string, string[]>, key: string, message: string): void {
  const list = errors[key];
  if (list === undefined) errors[key] = [message];
  else list.push(message);
}

const FIELDS = [
  'first_name',
  'last_name',
  'middle_name',
  'email',
  'alt_email',
  'phone',
  'alt_phone',
  'sms',
  'mobile',
  'has_scores',
  'code',
  'essay',
  'flag',
  'comment',
  'city',
  'zip',
  'country',
  'agree',
] as const;
type Field = (typeof FIELDS)[number];

/** Each block's keys and the messages that name them, written out once as a hand loop has them. */
const BLOCK_KEYS = blocks.map((k) => {
  const keys = Object.fromEntries(FIELDS.map((f) => [f, `b${k}_${f}`])) as Record<Field, string>;
  return {
    ...keys,
    scores: SCORES.map((_, i) => `b${k}_score_${i + 1}`),
    firstNameRequired: requiredDefault(keys.first_name),
    emailRequired: requiredDefault(keys.email),
    essayRequired: requiredDefault(keys.essay),
    cityRequired: requiredDefault(keys.city),
    zipRequired: requiredDefault(keys.zip),
    firstNameTooLong: tooLong45(keys.first_name),
    lastNameTooLong: tooLong45(keys.last_name),
    middleNameTooLong: tooLong45(keys.middle_name),
    emailTooLong: tooLongMessage(keys.email, 254),
    altEmailTooLong: tooLongMessage(keys.alt_email, 254),
    codeTooLong: tooLongMessage(keys.code, 12),
    essayTooLong: tooLongMessage(keys.essay, 1500),
    commentTooLong: tooLongMessage(keys.comment, 500),
    cityTooLong: tooLong45(keys.city),
    zipTooLong: tooLongMessage(keys.zip, 10),
  };
});
function tooLong45(key: string) {
  return tooLongMessage(key, 45);
}
const SCORE_MESSAGES = SCORES.map((_, i) => [msg.scoreRequired(i + 1), msg.score(i + 1)] as const);

/**
 * The same checks written by hand, as a competent developer would without a runtime: straight-line
 * code per block, keys and messages built once, nothing allocated but the errors.
 */
export function handWrittenSynthetic(a: A): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (let b = 0; b < BLOCKS; b++) {
    const K = BLOCK_KEYS[b]!;
    let v = a[K.first_name];
    if (isBlank(v)) add(errors, K.first_name, K.firstNameRequired);
    if (tooLong(v, 45)) add(errors, K.first_name, K.firstNameTooLong);
    v = a[K.last_name];
    if (isBlank(v)) add(errors, K.last_name, msg.lastName);
    if (tooShort(v, 2)) add(errors, K.last_name, msg.nameShort);
    if (tooLong(v, 45)) add(errors, K.last_name, K.lastNameTooLong);
    if (tooLong(a[K.middle_name], 45)) add(errors, K.middle_name, K.middleNameTooLong);
    v = a[K.email];
    if (isBlank(v)) add(errors, K.email, K.emailRequired);
    if (fails(v, EMAIL)) add(errors, K.email, msg.email);
    if (tooLong(v, 254)) add(errors, K.email, K.emailTooLong);
    const flag = a[K.flag];
    v = a[K.alt_email];
    if (is(flag, 'Y') && isBlank(v)) add(errors, K.alt_email, msg.altEmail);
    if (fails(v, EMAIL)) add(errors, K.alt_email, msg.email);
    if (tooLong(v, 254)) add(errors, K.alt_email, K.altEmailTooLong);
    v = a[K.phone];
    if (isBlank(v)) add(errors, K.phone, msg.phoneRequired);
    if (fails(v, PHONE)) add(errors, K.phone, msg.phone);
    const sms = a[K.sms];
    v = a[K.alt_phone];
    if (is(sms, 'N') && isBlank(v)) add(errors, K.alt_phone, msg.altPhone);
    if (fails(v, PHONE)) add(errors, K.alt_phone, msg.phone);
    if (isBlank(sms)) add(errors, K.sms, msg.yesNo);
    v = a[K.mobile];
    if (is(sms, 'Y') && isBlank(v)) add(errors, K.mobile, msg.mobile);
    if (fails(v, PHONE)) add(errors, K.mobile, msg.phone);
    const hasScores = a[K.has_scores];
    if (isBlank(hasScores)) add(errors, K.has_scores, msg.yesNo);
    if (is(hasScores, 'Y')) {
      for (let i = 0; i < SCORES.length; i++) {
        const key = K.scores[i]!;
        const range = SCORES[i]!;
        const [requiredMessage, rangeMessage] = SCORE_MESSAGES[i]!;
        v = a[key];
        if (isBlank(v)) add(errors, key, requiredMessage);
        if (outOfRange(v, range.min, range.max, 'step' in range ? range.step : undefined))
          add(errors, key, rangeMessage);
      }
    }
    v = a[K.code];
    if (fails(v, CODE)) add(errors, K.code, msg.code);
    if (is(hasScores, 'Y') && isBlank(v)) add(errors, K.code, msg.codeRequired);
    if (tooLong(v, 12)) add(errors, K.code, K.codeTooLong);
    v = a[K.essay];
    if (isBlank(v)) add(errors, K.essay, K.essayRequired);
    if (tooShort(v, 20)) add(errors, K.essay, msg.essayShort);
    if (tooLong(v, 1500)) add(errors, K.essay, K.essayTooLong);
    if (isBlank(flag)) add(errors, K.flag, msg.yesNo);
    v = a[K.comment];
    if (is(flag, 'Y') && isBlank(v)) add(errors, K.comment, msg.comment);
    if (tooLong(v, 500)) add(errors, K.comment, K.commentTooLong);
    v = a[K.city];
    if (isBlank(v)) add(errors, K.city, K.cityRequired);
    if (tooShort(v, 2)) add(errors, K.city, msg.cityShort);
    if (tooLong(v, 45)) add(errors, K.city, K.cityTooLong);
    v = a[K.zip];
    if (isBlank(v)) add(errors, K.zip, K.zipRequired);
    if (tooShort(v, 5)) add(errors, K.zip, msg.zipShort);
    if (tooLong(v, 10)) add(errors, K.zip, K.zipTooLong);
    if (isBlank(a[K.country])) add(errors, K.country, msg.country);
    v = a[K.agree];
    if (v !== true && v !== 'true') add(errors, K.agree, msg.agree);
  }
  return errors;
}
