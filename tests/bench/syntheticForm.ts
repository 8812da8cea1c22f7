/**
 * A synthetic form of the shape an outside benchmark measured (D162): 14 blocks of 22 questions,
 * 308 question keys and 630 checks (required, conditional required, lengths, e-mails, phones, score
 * ranges, yes/no option lists), with its own hand-written loop of the same checks and two sets of
 * answers: every key valid, and 54 keys invalid. The bench asserts both engines give identical errors.
 */
import type { Definition, Node, Rule } from '../../runtime';

export const BLOCKS = 14;

const PHONE = /^\([2-9]\d{2}\) \d{3}-\d{4}$/;
const CODE = /^[A-Z]{2}-\d{4}$/;
const EMAIL =
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
const tooLong = (key: string, max: number) => `${key} must be at most ${max} characters`;
const requiredDefault = (key: string) => `${key} is a required field`;

const SCORES = [
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

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
// eslint-disable-next-line no-control-regex
const SINGLE_UNITS = /^[\u0000-\u000c\u000e-\u02ff]*$/;
function length(s: string): number {
  if (SINGLE_UNITS.test(s)) return s.length;
  let n = 0;
  for (const _ of segmenter.segment(s)) n += 1;
  return n;
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

/** Each block's keys, written out once as a hand-written loop has them in its source. */
const BLOCK_KEYS = blocks.map(
  (k) => Object.fromEntries(FIELDS.map((f) => [f, `b${k}_${f}`])) as Record<Field, string>,
);
const SCORE_KEYS = blocks.map((k) => SCORES.map((_, i) => `b${k}_score_${i + 1}`));
const SCORE_MESSAGES = SCORES.map((_, i) => [msg.scoreRequired(i + 1), msg.score(i + 1)] as const);

/** The same checks written by hand, as a developer would without a runtime. */
export function handWrittenSynthetic(a: A): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => {
    const list = (errors[key] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  /** A check on a non-empty text answer; a value that is not text fails it. */
  const fails = (key: string, holds: (t: string) => boolean) => {
    const v = a[key];
    if (empty(v)) return false;
    const t = textOf(v);
    return t === null || !holds(t);
  };
  const maxLength = (key: string, max: number) => {
    if (fails(key, (t) => t.length <= max || length(t) <= max)) add(key, tooLong(key, max));
  };
  const minLength = (key: string, min: number, message: string) => {
    if (fails(key, (t) => length(t) >= min)) add(key, message);
  };
  const phone = (key: string) => {
    if (fails(key, (t) => PHONE.test(t))) add(key, msg.phone);
  };
  const email = (key: string) => {
    if (fails(key, (t) => EMAIL.test(t))) add(key, msg.email);
  };
  const requiredAt = (key: string, message: string) => {
    if (isBlank(a[key])) add(key, message);
  };
  const requiredDefaultAt = (key: string) => {
    if (isBlank(a[key])) add(key, requiredDefault(key));
  };

  for (let b = 0; b < BLOCKS; b++) {
    const K = BLOCK_KEYS[b]!;
    requiredDefaultAt(K.first_name);
    maxLength(K.first_name, 45);
    requiredAt(K.last_name, msg.lastName);
    minLength(K.last_name, 2, msg.nameShort);
    maxLength(K.last_name, 45);
    maxLength(K.middle_name, 45);
    requiredDefaultAt(K.email);
    email(K.email);
    maxLength(K.email, 254);
    const flag = a[K.flag];
    if (is(flag, 'Y')) requiredAt(K.alt_email, msg.altEmail);
    email(K.alt_email);
    maxLength(K.alt_email, 254);
    requiredAt(K.phone, msg.phoneRequired);
    phone(K.phone);
    const sms = a[K.sms];
    if (is(sms, 'N')) requiredAt(K.alt_phone, msg.altPhone);
    phone(K.alt_phone);
    requiredAt(K.sms, msg.yesNo);
    if (is(sms, 'Y')) requiredAt(K.mobile, msg.mobile);
    phone(K.mobile);
    const hasScores = a[K.has_scores];
    requiredAt(K.has_scores, msg.yesNo);
    if (hasScores !== undefined && hasScores !== null && String(hasScores) === 'Y') {
      const keys = SCORE_KEYS[b]!;
      SCORES.forEach((range, i) => {
        const key = keys[i]!;
        const [requiredMessage, rangeMessage] = SCORE_MESSAGES[i]!;
        requiredAt(key, requiredMessage);
        const outOfRange = fails(key, (t) => {
          if (!DECIMAL.test(t.trim())) return false;
          const n = Number(t);
          if (n < range.min || n > range.max) return false;
          if (!('step' in range)) return true;
          const steps = (n - range.min) / range.step;
          return Math.abs(steps - Math.round(steps)) < 1e-9;
        });
        if (outOfRange) add(key, rangeMessage);
      });
    }
    if (fails(K.code, (t) => CODE.test(t))) add(K.code, msg.code);
    if (is(hasScores, 'Y')) requiredAt(K.code, msg.codeRequired);
    maxLength(K.code, 12);
    requiredDefaultAt(K.essay);
    minLength(K.essay, 20, msg.essayShort);
    maxLength(K.essay, 1500);
    requiredAt(K.flag, msg.yesNo);
    if (is(flag, 'Y')) requiredAt(K.comment, msg.comment);
    maxLength(K.comment, 500);
    requiredDefaultAt(K.city);
    minLength(K.city, 2, msg.cityShort);
    maxLength(K.city, 45);
    requiredDefaultAt(K.zip);
    minLength(K.zip, 5, msg.zipShort);
    maxLength(K.zip, 10);
    requiredAt(K.country, msg.country);
    const agree = a[K.agree];
    if (agree !== true && agree !== 'true') add(K.agree, msg.agree);
  }
  return errors;
}
