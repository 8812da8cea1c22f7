/**
 * The files a college brings (docs/tenants.md, D145): the committed JSON Schemas and the embedded
 * default's files equal what `npm run tenant:files` writes from their sources, and every college
 * in the repository passes the checks the server makes on the way in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDefinition } from '../../runtime';
import { parseInstitutionFile } from '../../definitions/institutionFile';
import { TENANTS_DIR, tenantFiles } from '../../scripts/tenantFiles';

const read = (file: string) => readFileSync(path.join(TENANTS_DIR, file), 'utf8');

describe('the tenant files in the repository', () => {
  it.each(Object.keys(tenantFiles()))('%s equals what npm run tenant:files writes', (file) => {
    expect(read(file)).toBe(tenantFiles()[file]);
  });

  const colleges = readdirSync(TENANTS_DIR).filter((name) => name !== 'schemas');

  it.each(colleges)('%s: both files pass the checks a publish makes', (college) => {
    const { $schema: institutionSchema, ...institution } = JSON.parse(
      read(`${college}/institution.json`),
    ) as Record<string, unknown>;
    const { $schema: definitionSchema, ...definition } = JSON.parse(
      read(`${college}/definition.json`),
    ) as Record<string, unknown>;
    expect(institutionSchema).toBe('../schemas/institution.schema.json');
    expect(definitionSchema).toBe('../schemas/definition.schema.json');
    expect(() => parseInstitutionFile(institution)).not.toThrow();
    expect(loadDefinition(definition).pages.length).toBeGreaterThan(0);
  });

  it('keeps the colleges apart: no Northfield words in the second college', () => {
    const riverside = read('riverside/institution.json') + read('riverside/definition.json');
    expect(riverside).not.toMatch(/northfield/i);
  });
});
