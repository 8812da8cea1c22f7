import type { Definition } from './format';
import { compile } from './model';
import { parseDefinitionFormat } from './parseFormat';

/**
 * Loads a definition from plain data: checks the format with zod and the meaning (option lists,
 * tabs, repeats, operators) by compiling it. Throws a ConfigurationError naming the path of the first
 * problem; returns the checked definition, ready for every other runtime call.
 */
export function loadDefinition(data: unknown): Definition {
  const definition = parseDefinitionFormat(data);
  compile(definition);
  return definition;
}

/**
 * Prepares a definition whose format the TypeScript compiler has already checked (it is written as
 * `satisfies Definition` in code): only the meaning is checked, by compiling it. This keeps the
 * format schema (and zod) out of a browser bundle that ships a built-in definition; the server and
 * the tests still run `loadDefinition` over the same data. Data from outside (JSON, a database)
 * always goes through `loadDefinition`.
 */
export function prepareDefinition(definition: Definition): Definition {
  compile(definition);
  return definition;
}
