/**
 * The leaves of the definition format's zod schema (schema.ts): keys, ids, conditions, options,
 * messages; and what each node kind is, for the JSON Schema an editor reads (D194).
 */
import { z } from 'zod';
import { comparisonProblem } from './conditions';
import {
  OPERATORS,
  type Comparison,
  type Condition,
  type Node,
  type Operator,
  type OptionEntry,
  type OptionSource,
  type YearsSpec,
} from './format';
import { isPrototypeName } from './values';

export const key = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, 'must be a lowercase answer key (a-z, 0-9, _)')
  .refine(
    (value) => !isPrototypeName(value),
    'must not be the name of an object property such as "constructor"',
  )
  .describe('An answer key: lower-case letters, digits and _, such as first_name.');
export const id = z.string().min(1).describe('A name of its own among the nodes of its kind.');
const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const comparison: z.ZodType<Comparison> = z
  .strictObject({
    valueKey: key.describe('The key of the answer compared.'),
    operator: z
      .enum(OPERATORS as [Operator, ...Operator[]], {
        error: (issue) => comparisonProblem({ operator: issue.input }) ?? undefined,
      })
      .describe('How: equals, notEquals, lt, lte, gt, gte, answered, notAnswered, in, notIn.'),
    target: z
      .union([scalar, z.array(scalar).readonly()])
      .optional()
      .describe('What the answer is compared with: an option code such as "Y", not its label.'),
    scope: z
      .literal('slot')
      .optional()
      .describe('"slot": inside a repeat, the key of the same instance.'),
  })
  .describe('A comparison of one answer.')
  .superRefine((value, context) => {
    const problem = comparisonProblem(value);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });

export const condition: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    comparison,
    z.strictObject({ all: z.array(condition).min(1).readonly() }).describe('All of these hold.'),
    z.strictObject({ any: z.array(condition).min(1).readonly() }).describe('Any of these holds.'),
    z.strictObject({ not: condition }).describe('This does not hold.'),
  ]),
);

export const optionEntry: z.ZodType<OptionEntry> = z
  .strictObject({
    value: z.string().describe('The code stored, such as "Y"; conditions compare it.'),
    label: z.string().describe('What the applicant sees, such as "Yes".'),
  })
  .describe('One option: a code of its own and a visible label.');

export const yearsSpec: z.ZodType<YearsSpec> = z.strictObject({
  start: z.union([z.number().int(), z.strictObject({ offset: z.number().int() })]).optional(),
  length: z.number().int().min(1).max(200),
  direction: z.enum(['ascending', 'descending']),
});

export const optionSource: z.ZodType<OptionSource> = z
  .union([z.string().min(1), z.array(optionEntry).readonly(), z.strictObject({ years: yearsSpec })])
  .describe('The options: the name of a list in optionLists, a list of its own, or years.');

export const message = z.union([z.string().min(1), z.array(z.string().min(1)).min(1).readonly()]);
export const relativeDate = z.strictObject({
  yearOffset: z.number().int(),
  month: z.number().int().min(1).max(12),
  day: z.number().int().min(1).max(31),
});
export const when = { when: condition.optional() };

/** What each kind of node is, for the JSON Schema an editor reads (D194). */
export const NODE_WORDS: Record<Node['kind'], string> = {
  text: 'A one-line text question.',
  textarea: 'A long text question (an essay).',
  date: 'A date question.',
  phone: 'A phone number question.',
  ssn: 'A Social Security number question.',
  number: 'A number question.',
  select: 'A choice from a drop-down list.',
  radio: 'A choice among buttons, with content shown per choice.',
  checkbox: 'A check box: true or false.',
  monthYear: 'A month and a year.',
  lookup: 'A search in a list (schools, colleges, addresses) that fills further keys.',
  file: 'A document upload.',
  paragraph: 'Text shown between the questions.',
  section: 'A group of nodes with a title, hidden while `hideWhen` holds.',
  repeat: 'Nodes asked several times (parents, activities), each instance its own keys.',
  tabs: 'Tabs, of which one is shown at a time.',
  trigger: 'A button or a check box that reveals nodes.',
  exclusive: 'Cases of which only the first that holds is shown.',
};
