/**
 * The zod schema of the definition format itself. It runs once, when a definition is loaded, so a
 * broken definition fails loudly with the path of the problem. The hot path never touches zod.
 */
import { z } from 'zod';
import { comparisonProblem } from './conditions';
import {
  OPERATORS,
  type Operator,
  type Comparison,
  type Condition,
  type Definition,
  type Node,
  type OptionEntry,
  type OptionSource,
  type Rule,
  type YearsSpec,
} from './format';
import { isPrototypeName } from './values';
import { AUTOFILL_DETAIL, AUTOFILL_DETAIL_MESSAGE } from './autofill';

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

const key = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, 'must be a lowercase answer key (a-z, 0-9, _)')
  .refine(
    (value) => !isPrototypeName(value),
    'must not be the name of an object property such as "constructor"',
  );
const id = z.string().min(1);
/** The browser's autofill hint (the HTML `autocomplete` attribute; D198). */
const autoComplete = z.string().regex(AUTOFILL_DETAIL, AUTOFILL_DETAIL_MESSAGE).optional();
const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const comparison: z.ZodType<Comparison> = z
  .strictObject({
    valueKey: key,
    operator: z.enum(OPERATORS as [Operator, ...Operator[]], {
      error: (issue) => comparisonProblem({ operator: issue.input }) ?? undefined,
    }),
    target: z.union([scalar, z.array(scalar).readonly()]).optional(),
    scope: z.literal('slot').optional(),
  })
  .superRefine((value, context) => {
    const problem = comparisonProblem(value);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });

const condition: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    comparison,
    z.strictObject({ all: z.array(condition).min(1).readonly() }),
    z.strictObject({ any: z.array(condition).min(1).readonly() }),
    z.strictObject({ not: condition }),
  ]),
);

const optionEntry: z.ZodType<OptionEntry> = z.strictObject({
  value: z.string(),
  label: z.string(),
});

const yearsSpec: z.ZodType<YearsSpec> = z.strictObject({
  start: z.union([z.number().int(), z.strictObject({ offset: z.number().int() })]).optional(),
  length: z.number().int().min(1).max(200),
  direction: z.enum(['ascending', 'descending']),
});

const optionSource: z.ZodType<OptionSource> = z.union([
  z.string().min(1),
  z.array(optionEntry).readonly(),
  z.strictObject({ years: yearsSpec }),
]);

const message = z.union([z.string().min(1), z.array(z.string().min(1)).min(1).readonly()]);
const relativeDate = z.strictObject({
  yearOffset: z.number().int(),
  month: z.number().int().min(1).max(12),
  day: z.number().int().min(1).max(31),
});
const when = { when: condition.optional() };

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
      .regex(/^[imsu]*$/)
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
  key,
  label: z.string().min(1),
  help: z.string().optional(),
  rules: z.array(rule).readonly().optional(),
  sensitive: z.literal(true).optional(),
};

const clearList = z.union([z.literal('all'), z.array(key).readonly()]);
const children = z.lazy(() => z.array(node).readonly());

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
    description: z.boolean().optional(),
    conditional: z
      .discriminatedUnion('category', [
        z.strictObject({ category: z.literal('displayOnly'), when: condition }),
        z.strictObject({
          category: z.literal('displayAndOptions'),
          control: z.strictObject({ valueKey: key, scope: z.literal('slot').optional() }),
          optionsByValue: z.record(z.string(), optionSource),
        }),
      ])
      .optional(),
  }),
  radio: z.strictObject({
    kind: z.literal('radio'),
    ...questionBase,
    options: optionSource,
    description: z.boolean().optional(),
    content: z.record(z.string(), children).optional(),
  }),
  checkbox: z.strictObject({ kind: z.literal('checkbox'), ...questionBase }),
  monthYear: z.strictObject({
    kind: z.literal('monthYear'),
    ...questionBase,
    yearKey: key,
    years: yearsSpec,
  }),
  lookup: z.strictObject({
    kind: z.literal('lookup'),
    ...questionBase,
    category: z.enum(['hs_ceeb', 'college_ceeb', 'address']),
    prefix: z.string(),
    fills: z.array(z.string().regex(/^[a-z0-9_]+$/)).readonly(),
    autoComplete,
  }),
  file: z.strictObject({ kind: z.literal('file'), ...questionBase }),
  paragraph: z.strictObject({ kind: z.literal('paragraph'), id, text: z.string().min(1) }),
  section: z.strictObject({
    kind: z.literal('section'),
    id,
    title: z.string().optional(),
    description: z.string().optional(),
    hideWhen: condition.optional(),
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
          .array(z.string().regex(/^[a-z][a-z0-9_]*_$/))
          .min(1)
          .readonly(),
      }),
      z.strictObject({ kind: z.literal('suffix'), max: z.number().int().min(1) }),
    ]),
    addAnother: z.strictObject({ buttonId: id, label: z.string().min(1) }).optional(),
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
      .readonly(),
  }),
} satisfies Record<Node['kind'], z.ZodType>;

/** A node kind or property written in format.ts or here only stops the build here. */
export type NodesAgree = AllTrue<{
  [K in Node['kind']]: Agree<z.output<(typeof nodeSchemas)[K]>, Extract<Node, { kind: K }>>;
}>;

const node: z.ZodType<Node> = z.lazy(() =>
  z.discriminatedUnion(
    'kind',
    Object.values(nodeSchemas) as unknown as [ValueOf<typeof nodeSchemas>],
    { error: unknownKind },
  ),
);

const definitionObject = z.strictObject({
  id,
  title: z.string().min(1),
  version: z.number().int().min(1),
  defaultRoute: z.string().startsWith('/'),
  optionLists: z.record(z.string(), z.array(optionEntry).readonly()),
  pages: z
    .array(
      z.strictObject({
        id,
        path: z.string().regex(/^\/[a-z0-9-]+$/),
        title: z.string().min(1),
        children: z.array(node).readonly(),
      }),
    )
    .min(1)
    .readonly(),
});

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
