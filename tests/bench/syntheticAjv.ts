/**
 * The synthetic form's checks as a JSON Schema compiled by ajv 8 (all errors, as the runtime
 * collects them): the other contender of the runtime bench. Required means present and not blank,
 * yes/no and country are enums, ranges are custom formats; lengths count code points (ajv's rule).
 */
import Ajv from 'ajv';
import { BLOCKS, CODE, EMAIL, PHONE, SCORES } from './syntheticForm';

const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const NOT_BLANK = '\\S';
/** A pattern that also lets an empty answer through (for a question required only sometimes). */
const emptyOr = (pattern: RegExp) => `^$|${pattern.source}`;

function inRange(range: (typeof SCORES)[number]) {
  return (text: string) => {
    if (!DECIMAL.test(text.trim())) return false;
    const n = Number(text);
    if (n < range.min || n > range.max) return false;
    if (!('step' in range)) return true;
    const steps = (n - range.min) / range.step;
    return Math.abs(steps - Math.round(steps)) < 1e-9;
  };
}

const equals = (key: string, value: string) => ({
  properties: { [key]: { const: value } },
  required: [key],
});

function blockSchema(k: number) {
  const p = `b${k}_`;
  const text = (extra: object) => ({ type: 'string', ...extra });
  const yesNo = { enum: ['Y', 'N'] };
  const properties: Record<string, object> = {
    [`${p}first_name`]: text({ pattern: NOT_BLANK, maxLength: 45 }),
    [`${p}last_name`]: text({ pattern: NOT_BLANK, minLength: 2, maxLength: 45 }),
    [`${p}middle_name`]: text({ maxLength: 45 }),
    [`${p}email`]: text({ pattern: EMAIL.source, maxLength: 254 }),
    [`${p}alt_email`]: text({ pattern: emptyOr(EMAIL), maxLength: 254 }),
    [`${p}phone`]: text({ pattern: PHONE.source }),
    [`${p}alt_phone`]: text({ pattern: emptyOr(PHONE) }),
    [`${p}sms`]: yesNo,
    [`${p}mobile`]: text({ pattern: emptyOr(PHONE) }),
    [`${p}has_scores`]: yesNo,
    [`${p}code`]: text({ pattern: emptyOr(CODE), maxLength: 12 }),
    [`${p}essay`]: text({ pattern: NOT_BLANK, minLength: 20, maxLength: 1500 }),
    [`${p}flag`]: yesNo,
    [`${p}comment`]: text({ maxLength: 500 }),
    [`${p}city`]: text({ pattern: NOT_BLANK, minLength: 2, maxLength: 45 }),
    [`${p}zip`]: text({ pattern: NOT_BLANK, minLength: 5, maxLength: 10 }),
    [`${p}country`]: { enum: ['USA', 'CAN'] },
    [`${p}agree`]: { enum: [true, 'true'] },
  };
  SCORES.forEach((_, i) => {
    properties[`${p}score_${i + 1}`] = text({ format: `score_${i + 1}` });
  });
  const required = [
    'first_name',
    'last_name',
    'email',
    'phone',
    'sms',
    'has_scores',
    'essay',
    'flag',
    'city',
    'zip',
    'country',
    'agree',
  ].map((f) => p + f);
  const conditional = [
    {
      if: equals(`${p}flag`, 'Y'),
      then: {
        required: [`${p}alt_email`, `${p}comment`],
        properties: {
          [`${p}alt_email`]: { type: 'string', minLength: 1 },
          [`${p}comment`]: { type: 'string', pattern: NOT_BLANK },
        },
      },
    },
    {
      if: equals(`${p}sms`, 'N'),
      then: { required: [`${p}alt_phone`], properties: { [`${p}alt_phone`]: { type: 'string', minLength: 1 } } },
    },
    {
      if: equals(`${p}sms`, 'Y'),
      then: { required: [`${p}mobile`], properties: { [`${p}mobile`]: { type: 'string', minLength: 1 } } },
    },
    {
      if: equals(`${p}has_scores`, 'Y'),
      then: {
        required: [`${p}code`, ...SCORES.map((_, i) => `${p}score_${i + 1}`)],
        properties: { [`${p}code`]: { type: 'string', minLength: 1 } },
      },
    },
  ];
  return { properties, required, conditional };
}

const blocks = Array.from({ length: BLOCKS }, (_, i) => blockSchema(i + 1));
const ajv = new Ajv({ allErrors: true });
SCORES.forEach((range, i) => {
  ajv.addFormat(`score_${i + 1}`, { type: 'string', validate: inRange(range) });
});
const validate = ajv.compile({
  type: 'object',
  properties: Object.assign({}, ...blocks.map((b) => b.properties)) as Record<string, object>,
  required: blocks.flatMap((b) => b.required),
  allOf: blocks.flatMap((b) => b.conditional),
});

/** ajv's errors as an app shows them: messages per answer key. */
export function ajvSynthetic(answers: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (validate(answers)) return errors;
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'if') continue; // the failing branch's own error names the key
    const missing = (error.params as { missingProperty?: string }).missingProperty;
    // instancePath is ajv 8's name (this cast keeps an ajv 6 checkout type-checking until `npm ci`).
    const key = missing ?? (error as unknown as { instancePath: string }).instancePath.slice(1);
    const message = error.message ?? error.keyword;
    const list = errors[key];
    if (list === undefined) errors[key] = [message];
    else list.push(message);
  }
  return errors;
}
