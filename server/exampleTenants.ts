/**
 * The embedded default serves a second college beside the first, so that `npm start` shows the
 * platform as it is (docs/tenants.md): the files of tenants/riverside, at riverside.localhost (which
 * browsers resolve to this machine). Only on the embedded database; a deployment on PostgreSQL adds
 * its colleges with `npm run tenant`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadDefinition, type Definition } from '../runtime';
import { parseInstitutionFile, withoutSchemaLink } from '../definitions/institutionFile';
import type { TenantSeed } from './tenants';

export const EXAMPLE_TENANT = { id: 'riverside', hosts: ['riverside.localhost'] } as const;

const readWithoutSchemaLink = (file: string): unknown =>
  withoutSchemaLink(JSON.parse(readFileSync(file, 'utf8')) as unknown);

/** The second college's seed, from its files under `root`/tenants; none when they are absent. */
export function exampleTenants(root = process.cwd()): {
  tenants: TenantSeed[];
  definitions: Definition[];
} {
  const folder = path.join(root, 'tenants', EXAMPLE_TENANT.id);
  if (!existsSync(path.join(folder, 'definition.json'))) return { tenants: [], definitions: [] };
  const institution = parseInstitutionFile(
    readWithoutSchemaLink(path.join(folder, 'institution.json')),
  );
  const definition = loadDefinition(readWithoutSchemaLink(path.join(folder, 'definition.json')));
  return {
    tenants: [
      {
        id: EXAMPLE_TENANT.id,
        name: institution.config.partner_name,
        definitionId: definition.id,
        hosts: [...EXAMPLE_TENANT.hosts],
        institution,
      },
    ],
    definitions: [definition],
  };
}
