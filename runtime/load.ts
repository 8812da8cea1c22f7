import type { Definition } from './format';
import { compile } from './model';
import { parseDefinitionFormat } from './schema';

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
