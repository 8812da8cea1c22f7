/**
 * Onboarding institutions (docs/tenants.md, D145): add a tenant from its two files, publish a new
 * definition version, replace the institution file, list and export. Every file is checked before
 * anything is written; a refused file answers each problem with its path, and nothing changes.
 */
import { eq } from 'drizzle-orm';
import { ConfigurationError, loadDefinition } from '../../runtime';
import {
  InstitutionFileError,
  parseInstitutionFile,
  withoutSchemaLink,
  type InstitutionFile,
} from '../../definitions/institutionFile';
import type { Database } from '../db/client';
import { runInTenant } from '../db/tenantScope';
import { definitionVersions, tenants } from '../db/schema';
import {
  createTenant,
  publishDefinition,
  publishedVersions,
  updateInstitution,
  TenantTaken,
  type PublishedVersion,
} from '../tenants';

/** A file refused on the way in: every problem, each with the path it is at. */
export class TenantFileRefused extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`The files were refused:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  }
}

const TENANT_ID = /^[a-z][a-z0-9-]{1,39}$/;
const HOST =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The problems of an institution file, prefixed with the file's name. */
function institutionProblems(data: unknown): { file?: InstitutionFile; problems: string[] } {
  try {
    return { file: parseInstitutionFile(data), problems: [] };
  } catch (error) {
    if (error instanceof InstitutionFileError)
      return { problems: error.problems.map((problem) => `institution: ${problem}`) };
    throw error;
  }
}

function definitionProblems(data: unknown): string[] {
  try {
    loadDefinition(withoutSchemaLink(data));
    return [];
  } catch (error) {
    if (error instanceof ConfigurationError) return [`definition: ${error.message}`];
    throw error;
  }
}

export interface NewTenant {
  readonly id: string;
  readonly hosts: readonly string[];
  readonly institution: unknown;
  readonly definition: unknown;
}

/** Who a tenant's versions were published by when the command line did it. */
export const CLI_PUBLISHER = 'command line';

/** Adds a tenant with its two files and publishes the definition as its version 1. */
export async function addTenant(db: Database, request: NewTenant): Promise<{ version: number }> {
  const problems: string[] = [];
  if (!TENANT_ID.test(request.id))
    problems.push('id: use 2 to 40 lower-case letters, digits or hyphens, starting with a letter');
  const hosts = request.hosts.map((host) => host.trim().toLowerCase());
  if (hosts.length === 0) problems.push('hosts: name at least one host');
  for (const host of hosts) if (!HOST.test(host)) problems.push(`hosts: "${host}" is no host name`);
  const institution = institutionProblems(request.institution);
  problems.push(...institution.problems, ...definitionProblems(request.definition));
  if (problems.length > 0 || !institution.file) throw new TenantFileRefused(problems);

  const definition = loadDefinition(withoutSchemaLink(request.definition));
  const seed = {
    id: request.id,
    name: institution.file.config.partner_name,
    hosts,
    institution: withoutSchemaLink(institution.file),
  };
  await createTenant(db, seed, definition, CLI_PUBLISHER).catch((error: unknown) => {
    throw error instanceof TenantTaken ? new TenantFileRefused([error.message]) : error;
  });
  return { version: 1 };
}

/** Publishes a definition file as the tenant's next version; its number. */
export async function publishTenantDefinition(
  db: Database,
  tenantId: string,
  data: unknown,
  publishedBy: string,
): Promise<number> {
  const problems = definitionProblems(data);
  if (problems.length > 0) throw new TenantFileRefused(problems);
  return publishDefinition(db, tenantId, withoutSchemaLink(data), publishedBy);
}

/** Replaces the tenant's institution file. */
export async function replaceInstitution(
  db: Database,
  tenantId: string,
  data: unknown,
): Promise<void> {
  await updateInstitution(db, tenantId, data).catch((error: unknown) => {
    if (error instanceof InstitutionFileError)
      throw new TenantFileRefused(error.problems.map((problem) => `institution: ${problem}`));
    throw error;
  });
}

export interface TenantSummary {
  readonly id: string;
  readonly name: string;
  readonly hosts: readonly string[];
  readonly versions: readonly PublishedVersion[];
}

export async function listTenants(db: Database): Promise<TenantSummary[]> {
  const rows = await db
    .select({ id: tenants.id, name: tenants.name, hosts: tenants.hosts })
    .from(tenants)
    .orderBy(tenants.id);
  return Promise.all(
    rows.map(async (row) => ({ ...row, versions: await publishedVersions(db, row.id) })),
  );
}

/** The tenant's institution file and its latest definition, as a college would start from them. */
export async function exportTenant(
  db: Database,
  tenantId: string,
): Promise<{ institution: InstitutionFile; definition: unknown; version: number } | undefined> {
  const [row] = await db
    .select({ institution: tenants.institution })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  if (!row?.institution) return undefined;
  const versions = await runInTenant(tenantId, () =>
    db
      .select({ version: definitionVersions.version, definition: definitionVersions.definition })
      .from(definitionVersions)
      .where(eq(definitionVersions.tenantId, tenantId)),
  );
  const latest = versions.reduce<(typeof versions)[number] | undefined>(
    (best, version) => (!best || version.version > best.version ? version : best),
    undefined,
  );
  if (!latest) return undefined;
  return { institution: row.institution, definition: latest.definition, version: latest.version };
}
