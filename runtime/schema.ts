/**
 * The zod schema of the definition format itself. It runs once, when a definition is loaded, so a
 * broken definition fails loudly with the path of the problem. The hot path never touches zod.
 */
import { z } from 'zod';
import { type Definition, type Node, type Rule } from './format';
import {
  condition,
  id,
  key,
  message,
  NODE_WORDS,
  optionEntry,
  optionSource,
  relativeDate,
  when,
  yearsSpec,
} from './schemaParts';
import { AUTOFILL_DETAIL, AUTOFILL_DETAIL_MESSAGE } from './autofill';

/** The browser's autofill hint (the HTML `autocomplete` attribute; D198). */
const autoComplete = z.string().regex(AUTOFILL_DETAIL, AUTOFILL_DETAIL_MESSAGE).optional();

type ValueOf<T> = T[keyof T];

/**
 * True when the schema's output and the format type accept the same values under the same property
 * names (readonly aside). Checked per kind below, so the two sides cannot drift apart.
 */
export type Agree<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A] extends [keyof B]
      ? [keyof B] extends [keyof A]
        ? true
        : false
      : false
    : false
  : false;

/** Compiles only when every entry is true. */
type AllTrue<T extends Record<PropertyKey, true>> = T;

const ruleSchemas = {
  required: z.strictObject({ kind: z.literal('required'), message: message.optional(), ...when }),
  mustBeTrue: z.strictObject({
    kind: z.literal('mustBeTrue'),
    message: message.optional(),
    ...when,
  }),
  pattern: z.strictObject({
    kind: z.literal('pattern'),
    pattern: z.string().refine(isValidRegExp, 'must be a valid regular expression'),
    flags: z
      .string()
      .regex(/^[imsu]*$/, 'may hold only the flags i, m, s and u')
      .optional(),
    message,
    ...when,
  }),
  email: z.strictObject({ kind: z.literal('email'), message, ...when }),
  maxLength: z.strictObject({
    kind: z.literal('maxLength'),
    max: z.number().int().min(1),
    message: message.optional(),
    ...when,
  }),
  minLength: z.strictObject({
    kind: z.literal('minLength'),
    min: z.number().int().min(1),
    message,
    ...when,
  }),
  range: z.strictObject({
    kind: z.literal('range'),
    min: z.number(),
    max: z.number(),
    step: z.number().positive().optional(),
    message,
    ...when,
  }),
  date: z.strictObject({ kind: z.literal('date'), message, ...when }),
  dateWindow: z.strictObject({
    kind: z.literal('dateWindow'),
    min: relativeDate.optional(),
    max: relativeDate.optional(),
    minMessage: message,
    maxMessage: message,
    ...when,
  }),
} satisfies Record<Rule['kind'], z.ZodType>;

/** A rule kind or property written in format.ts or here only stops the build here. */
export type RulesAgree = AllTrue<{
  [K in Rule['kind']]: Agree<z.output<(typeof ruleSchemas)[K]>, Extract<Rule, { kind: K }>>;
}>;

const rule: z.ZodType<Rule> = z.discriminatedUnion(
  'kind',
  Object.values(ruleSchemas) as unknown as [ValueOf<typeof ruleSchemas>],
);

const questionBase = {
  key: key.describe('The key its answer is stored under, used by no other question.'),
  label: z.string().min(1).describe('The question as the applicant reads it, in plain words.'),
  help: z.string().optional().describe('A hint shown with the question.'),
  rules: z
    .array(rule)
    .readonly()
    .optional()
    .describe('What its answer must be: required, pattern, email, a length, a range, a date.'),
  sensitive: z
    .literal(true)
    .optional()
    .describe('A sensitive answer: kept in memory only before an account exists, sealed at rest.'),
};

const clearList = z
  .union([z.literal('all'), z.array(key).readonly()])
  .describe('Which answers are cleared while it is hidden: "all", or the keys inside it.');
const children = z
  .lazy(() => z.array(node).readonly())
  .describe('What it holds: questions, paragraphs and containers.');

const trigger = z.lazy(() =>
  z.discriminatedUnion('mode', [
    z.strictObject({
      kind: z.literal('trigger'),
      mode: z.literal('button'),
      id,
      label: z.string().min(1),
      after: children,
    }),
    z.strictObject({
      kind: z.literal('trigger'),
      mode: z.literal('checkbox'),
      id,
      key,
      label: z.string().min(1),
      before: children,
      after: children,
    }),
  ]),
);

const unknownKind = (issue: { input?: unknown }) => {
  const kind =
    typeof issue.input === 'object' && issue.input !== null
      ? (issue.input as { kind?: unknown }).kind
      : undefined;
  return `Unknown kind ${JSON.stringify(kind)}`;
};

const nodeSchemas = {
  text: z.strictObject({
    kind: z.literal('text'),
    ...questionBase,
    maxLength: z.number().int().min(1).optional(),
    inputMode: z.enum(['text', 'email', 'numeric', 'decimal', 'url']).optional(),
    autoComplete,
  }),
  textarea: z.strictObject({
    kind: z.literal('textarea'),
    ...questionBase,
    maxLength: z.number().int().min(1).optional(),
    rows: z.number().int().min(1).optional(),
  }),
  date: z.strictObject({
    kind: z.literal('date'),
    ...questionBase,
    autoComplete,
  }),
  phone: z.strictObject({ kind: z.literal('phone'), ...questionBase, autoComplete }),
  ssn: z.strictObject({
    kind: z.literal('ssn'),
    ...questionBase,
    inCopies: z.enum(['full', 'lastFour']).optional(),
  }),
  number: z.strictObject({
    kind: z.literal('number'),
    ...questionBase,
    min: z.number().optional(),
    max: z.number().optional(),
    step: z.number().positive().optional(),
  }),
  select: z.strictObject({
    kind: z.literal('select'),
    ...questionBase,
    autoComplete,
    options: optionSource,
    description: z
      .boolean()
      .optional()
      .describe('Also store the chosen label under <key>_desc (true when absent).'),
    conditional: z
      .discriminatedUnion('category', [
        z
          .strictObject({ category: z.literal('displayOnly'), when: condition })
          .describe('Shown only while `when` holds.'),
        z
          .strictObject({
            category: z.literal('displayAndOptions'),
            control: z.strictObject({ valueKey: key, scope: z.literal('slot').optional() }),
            optionsByValue: z
              .record(z.string(), optionSource)
              .describe("The options for each code of the control's answer."),
          })
          .describe("Its options depend on another answer (the control's code)."),
      ])
      .optional()
      .describe('A select shown, or given its options, by another answer.'),
  }),
  radio: z.strictObject({
    kind: z.literal('radio'),
    ...questionBase,
    options: optionSource,
    description: z
      .boolean()
      .optional()
      .describe('Also store the chosen label under <key>_desc (true when absent).'),
    content: z
      .record(z.string(), children)
      .optional()
      .describe('What is shown for each option code once it is chosen, keyed by the code.'),
  }),
  checkbox: z.strictObject({ kind: z.literal('checkbox'), ...questionBase }),
  monthYear: z.strictObject({
    kind: z.literal('monthYear'),
    ...questionBase,
    yearKey: key.describe('The key the year is stored under (the month under `key`).'),
    years: yearsSpec,
  }),
  lookup: z.strictObject({
    kind: z.literal('lookup'),
    ...questionBase,
    category: z
      .enum(['hs_ceeb', 'college_ceeb', 'address'])
      .describe('What is looked up: high schools, colleges or addresses.'),
    prefix: z.string().describe('The start of the keys a chosen entry fills (and of `key`).'),
    fills: z
      .array(z.string().regex(/^[a-z0-9_]+$/, 'must be lower-case letters, digits or _'))
      .readonly(),
    autoComplete,
  }),
  file: z.strictObject({ kind: z.literal('file'), ...questionBase }),
  paragraph: z.strictObject({ kind: z.literal('paragraph'), id, text: z.string().min(1) }),
  section: z.strictObject({
    kind: z.literal('section'),
    id,
    title: z.string().optional(),
    description: z.string().optional(),
    hideWhen: condition.optional().describe('The section hides while this holds.'),
    clears: clearList.optional(),
    children,
  }),
  repeat: z.strictObject({
    kind: z.literal('repeat'),
    id,
    title: z.string().optional(),
    instances: z.discriminatedUnion('kind', [
      z.strictObject({
        kind: z.literal('prefix'),
        prefixes: z
          .array(
            z
              .string()
              .regex(/^[a-z][a-z0-9_]*_$/, 'must be a prefix such as parent_ (ending in _)'),
          )
          .min(1)
          .readonly(),
      }),
      z.strictObject({ kind: z.literal('suffix'), max: z.number().int().min(1) }),
    ]),
    addAnother: z
      .strictObject({ buttonId: id, label: z.string().min(1) })
      .optional()
      .describe('An "Add Another" button revealing one instance at a time.'),
    children,
  }),
  tabs: z.strictObject({
    kind: z.literal('tabs'),
    id,
    label: z.string().min(1),
    defaultTab: z.string().min(1),
    tabs: z
      .array(
        z.strictObject({
          name: z.string().min(1),
          label: z.string().min(1),
          clears: clearList.optional(),
          children,
        }),
      )
      .min(1)
      .readonly(),
  }),
  trigger,
  exclusive: z.strictObject({
    kind: z.literal('exclusive'),
    id,
    cases: z
      .array(z.strictObject({ when: condition, children }))
      .min(1)
      .readonly()
      .describe('The first case whose `when` holds is shown; the others are hidden and cleared.'),
  }),
} satisfies Record<Node['kind'], z.ZodType>;

/** A node kind or property written in format.ts or here only stops the build here. */
export type NodesAgree = AllTrue<{
  [K in Node['kind']]: Agree<z.output<(typeof nodeSchemas)[K]>, Extract<Node, { kind: K }>>;
}>;

const node: z.ZodType<Node> = z.lazy(() =>
  z.discriminatedUnion(
    'kind',
    Object.entries(nodeSchemas).map(([kind, schema]) =>
      schema.describe(NODE_WORDS[kind as Node['kind']]),
    ) as unknown as [ValueOf<typeof nodeSchemas>],
    { error: unknownKind },
  ),
);

const definitionObject = z
  .strictObject({
    id: id.describe("The form's name of its own, such as riverside-enrollment."),
    title: z.string().min(1).describe("The form's title."),
    version: z
      .number()
      .int()
      .min(1)
      .describe('Replaced by the number a publish gives the form (1, 2, …).'),
    defaultRoute: z
      .string()
      .startsWith('/')
      .describe('The path of the page applicants land on, such as /about.'),
    optionLists: z
      .record(z.string(), z.array(optionEntry).readonly())
      .describe('Named option lists, each starting with { "value": "--", "label": "--" }.'),
    pages: z
      .array(
        z
          .strictObject({
            id,
            path: z
              .string()
              .regex(
                /^\/[a-z0-9-]+$/,
                'must be a path such as /about: lower-case letters, digits or -',
              )
              .describe('Its address in the form, such as /about.'),
            title: z.string().min(1).describe("The page's title."),
            children: z.array(node).readonly().describe('What the page asks, in order.'),
          })
          .describe('A page of the form.'),
      )
      .min(1)
      .readonly()
      .describe('The pages, in order.'),
  })
  .describe("A college's form: its pages, questions, options and rules (docs/tenants.md).");

export type DefinitionAgrees = AllTrue<{
  definition: Agree<z.output<typeof definitionObject>, Definition>;
  page: Agree<z.output<typeof definitionObject>['pages'][number], Definition['pages'][number]>;
}>;

export const definitionSchema: z.ZodType<Definition> = definitionObject;

function isValidRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
