/**
 * Developer-time checks (SPEC 5.8): problems a definition author must fix. They return problems
 * instead of throwing, so a build, a test or a local start can report all of them at once. Besides
 * SPEC's own, the checks every form must pass (formChecks.ts, D194), each with its path.
 */
import { compile } from './model';
import type { Definition } from './format';
import { formProblems, storedKeyPaths, type FormProblemCode } from './formChecks';
import { BLANK } from './values';

export type DefinitionProblemCode =
  'duplicateKeys' | 'extraKeys' | 'prefixNotInKey' | 'noPage' | 'blankNotFirst' | FormProblemCode;

export interface DefinitionProblem {
  readonly level: 'error' | 'warning';
  readonly code: DefinitionProblemCode;
  readonly message: string;
  readonly keys: readonly string[];
  /** Where in the definition (`pages[0].children[2].hideWhen.valueKey`), when it is one place. */
  readonly path?: string;
}

export interface CheckOptions {
  /** The tenant data model to check against (default: the keys the definition itself produces). */
  readonly tenantDataModel?: readonly string[];
  /** Keys that will be shown in the error summary (for example every key a rule can fail on). */
  readonly summaryKeys?: readonly string[];
}

export function duplicateKeysMessage(keys: readonly string[]): string {
  return `Your ValidationErrorSummary implementation uses keys that are present in multiple pages. The following keys are duplicates: ${keys.join(', ')}`;
}

export function extraKeysMessage(keys: readonly string[]): string {
  return `Your implementation uses keys that are not present in the tenant dataModel. This can cause severe data issues downstream. The following keys are extras: ${keys.join(', ')}`;
}

export function prefixMessage(prefix: string, key: string): string {
  return `Your prefix (${prefix}) is not part of the provided key (${key}). Lookup answers would be written under the wrong keys.`;
}

export function noPageMessage(key: string): string {
  return `The question "${key}" belongs to no page: its error is shown without a link.`;
}

export function checkDefinition(
  definition: Definition,
  options: CheckOptions = {},
): DefinitionProblem[] {
  const model = compile(definition);
  const problems: DefinitionProblem[] = [];

  const duplicates = [...model.keysOnSeveralPages.keys()];
  if (duplicates.length > 0) {
    problems.push({
      level: 'error',
      code: 'duplicateKeys',
      message: duplicateKeysMessage(duplicates),
      keys: duplicates,
    });
  }

  const tenant = new Set(options.tenantDataModel ?? model.keySpecs.keys());
  const used = new Set<string>([...model.keySpecs.keys(), ...model.references.map((r) => r.key)]);
  const extras = [...used].filter((key) => !tenant.has(key));
  if (extras.length > 0) {
    problems.push({
      level: 'error',
      code: 'extraKeys',
      message: extraKeysMessage(extras),
      keys: extras,
    });
  }

  for (const { prefix, key, path } of model.prefixProblems) {
    problems.push({
      level: 'error',
      code: 'prefixNotInKey',
      message: prefixMessage(prefix, key),
      keys: [key],
      path,
    });
  }

  for (const key of options.summaryKeys ?? []) {
    if (!model.keyPage.has(key)) {
      problems.push({ level: 'warning', code: 'noPage', message: noPageMessage(key), keys: [key] });
    }
  }

  for (const [name, list] of Object.entries(definition.optionLists)) {
    if (list[0]?.value !== BLANK) {
      problems.push({
        level: 'error',
        code: 'blankNotFirst',
        message: `The option list "${name}" must start with the blank '${BLANK}' entry.`,
        keys: [],
        path: `optionLists.${name}`,
      });
    }
  }
  for (const problem of formProblems(definition, model))
    problems.push({ level: 'error', ...problem });
  return problems;
}

/** Where each key a definition stores is asked (the path of the first question storing it). */
export function keyPaths(definition: Definition): ReadonlyMap<string, string> {
  return storedKeyPaths(compile(definition));
}

/** The page a key belongs to (for summary links), or null when it belongs to no page. */
export function pageOfKey(
  definition: Definition,
  key: string,
): { id: string; path: string } | null {
  const page = compile(definition).keyPage.get(key);
  return page ? { id: page.id, path: page.path } : null;
}
