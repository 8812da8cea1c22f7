/**
 * `npm run tenant:files`: writes the files an institution brings, as the repository carries them
 * (docs/tenants.md): the JSON Schemas of both files, generated from their zod schemas, and the
 * embedded default's two files, generated from its TypeScript in definitions/ (D145). A test checks
 * that the committed files equal what this writes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { definitionSchema } from '../runtime';
import { institutionFileSchema } from '../definitions/institutionFile';
import { seedDefinitionFile, seedInstitutionFile } from '../definitions/seed';

export const TENANTS_DIR = fileURLToPath(new URL('../tenants/', import.meta.url));

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The `$schema` link each file names, which an editor reads and the server ignores. */
const SCHEMA_LINK = {
  type: 'string' as const,
  description: 'Where an editor finds this JSON Schema, such as ../schemas/definition.schema.json.',
};

function schemaFile(schema: z.core.$ZodType, title: string, id: string): string {
  const generated = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' });
  // The runtime's format knows no `$schema`: the server strips it before checking (D194).
  const properties = generated.properties;
  if (properties && !('$schema' in properties))
    generated.properties = { $schema: SCHEMA_LINK, ...properties };
  return json({ ...generated, $id: id, title });
}

/** Every generated file, by its path under tenants/. */
export function tenantFiles(): Record<string, string> {
  return {
    'schemas/institution.schema.json': schemaFile(
      institutionFileSchema,
      'Institution file',
      'institution.schema.json',
    ),
    'schemas/definition.schema.json': schemaFile(
      definitionSchema,
      'Definition file',
      'definition.schema.json',
    ),
    'northfield/institution.json': json({
      $schema: '../schemas/institution.schema.json',
      ...seedInstitutionFile,
    }),
    'northfield/definition.json': json({
      $schema: '../schemas/definition.schema.json',
      ...seedDefinitionFile,
    }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [file, text] of Object.entries(tenantFiles())) {
    const target = path.join(TENANTS_DIR, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
    console.log(`wrote tenants/${file}`);
  }
}
