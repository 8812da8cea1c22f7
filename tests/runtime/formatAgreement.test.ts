/**
 * The definition format is written as TypeScript types (runtime/format.ts) and as a zod schema
 * (runtime/schema.ts); a kind or a property added to one side only must stop the build. Compiles a
 * copy of runtime/ with one side changed and reads the compiler's verdict.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'format-agreement-'));
symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
cpSync(join(root, 'runtime'), join(dir, 'runtime'), { recursive: true });
const originals = new Map<string, string>();
for (const file of ['format.ts', 'schema.ts'])
  originals.set(file, readFileSync(join(dir, 'runtime', file), 'utf8'));

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  allowImportingTsExtensions: true,
  skipLibCheck: true,
  noEmit: true,
  lib: ['lib.es2023.d.ts'],
  types: [],
};
let previous: ts.Program | undefined;

/** The compiler's errors in runtime/ after replacing `find` by `replace` in one file. */
function errorsWith(file: string, find: string, replace: string): string[] {
  for (const [name, text] of originals) writeFileSync(join(dir, 'runtime', name), text);
  const original = originals.get(file)!;
  expect(original).toContain(find);
  writeFileSync(join(dir, 'runtime', file), original.replace(find, replace));
  const program = ts.createProgram({
    rootNames: [join(dir, 'runtime', 'index.ts')],
    options,
    oldProgram: previous,
  });
  previous = program;
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the format is written once: types and schema agree or the build stops', () => {
  it('compiles as it is', () => {
    expect(errorsWith('format.ts', 'export', 'export')).toEqual([]);
  }, 60_000);

  it('refuses a question kind added to the types only', () => {
    const errors = errorsWith(
      'format.ts',
      '  | FileQuestion;',
      "  | FileQuestion\n  | { readonly kind: 'slider'; readonly key: string; readonly label: string };",
    );
    expect(errors.some((e) => e.includes('schema.ts') && e.includes('slider'))).toBe(true);
    expect(errors.some((e) => e.includes('format.ts') && e.includes('slider'))).toBe(true);
  }, 60_000);

  it('refuses a question kind added to the schema only', () => {
    const errors = errorsWith(
      'schema.ts',
      "  file: z.strictObject({ kind: z.literal('file'), ...questionBase }),",
      "  file: z.strictObject({ kind: z.literal('file'), ...questionBase }),\n  slider: z.strictObject({ kind: z.literal('slider'), ...questionBase }),",
    );
    expect(errors.some((e) => e.includes('schema.ts') && e.includes('slider'))).toBe(true);
  }, 60_000);

  it('refuses a property added to one side only', () => {
    const inTypes = errorsWith(
      'format.ts',
      "  readonly kind: 'text';",
      "  readonly kind: 'text';\n  readonly placeholder?: string;",
    );
    expect(inTypes.some((e) => e.includes('schema.ts'))).toBe(true);
    const inSchema = errorsWith(
      'schema.ts',
      'rows: z.number().int().min(1).optional(),',
      'rows: z.number().int().min(1).optional(),\n    placeholder: z.string().optional(),',
    );
    expect(inSchema.some((e) => e.includes('schema.ts'))).toBe(true);
  }, 60_000);

  it('refuses an operator without its target shape', () => {
    const errors = errorsWith(
      'format.ts',
      "  notIn: 'list',",
      "  notIn: 'list',\n  near: 'maybe',",
    );
    expect(errors.some((e) => e.includes('format.ts'))).toBe(true);
  }, 60_000);
});
