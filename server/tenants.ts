/**
 * Tenants: each institution has its own configuration and definition. The embedded default seeds one
 * tenant, the fictional institution of definitions/.
 */
import { eq } from 'drizzle-orm';
import { loadDefinition, type Definition } from '../runtime';
import { applicationDefinitionData, institutionConfig } from '../definitions';
import type { InstitutionFile } from '../definitions/institutionFile';
import { seedInstitutionFile } from '../definitions/seed';
import type { Database } from './db/client';
import { tenants } from './db/schema';

/** Definitions the platform can serve, by id, each checked with the full format schema on load. */
const applicationDefinition = loadDefinition(applicationDefinitionData);
export const definitionsById: ReadonlyMap<string, Definition> = new Map([
  [applicationDefinition.id, applicationDefinition],
]);

export interface Tenant {
  readonly id: string;
  readonly name: string;
  readonly definition: Definition;
  /** The published version of `definition` (the latest). */
  readonly definitionVersion: number;
  /** The institution's configuration and words. */
  readonly institution: InstitutionFile;
  readonly hosts: readonly string[];
}

export const DEFAULT_TENANT_SEED = {
  id: 'northfield',
  name: institutionConfig.partner_name,
  definitionId: applicationDefinition.id,
  hosts: ['localhost', '127.0.0.1'],
};

/** Creates a tenant if it does not exist yet. */
export async function ensureTenant(
  db: Database,
  seed: { id: string; name: string; definitionId: string; hosts: string[] },
): Promise<void> {
  await db.insert(tenants).values(seed).onConflictDoNothing({ target: tenants.id });
}

export class TenantDirectory {
  private byId = new Map<string, Tenant>();
  private byHost = new Map<string, Tenant>();

  private readonly definitions: ReadonlyMap<string, Definition>;

  /** `extraDefinitions`: definitions beyond the platform's own (tests of other forms). */
  constructor(
    private readonly defaultTenantId: string,
    extraDefinitions: readonly Definition[] = [],
  ) {
    this.definitions = new Map([
      ...definitionsById,
      ...extraDefinitions.map((definition) => [definition.id, definition] as const),
    ]);
  }

  async load(db: Database): Promise<void> {
    const rows = await db.select().from(tenants);
    this.byId.clear();
    this.byHost.clear();
    for (const row of rows) {
      const definition = this.definitions.get(row.definitionId);
      if (!definition)
        throw new Error(`Tenant "${row.id}" uses an unknown definition "${row.definitionId}"`);
      const tenant: Tenant = {
        id: row.id,
        name: row.name,
        definition,
        definitionVersion: definition.version,
        institution: seedInstitutionFile,
        hosts: row.hosts,
      };
      this.byId.set(row.id, tenant);
      for (const host of row.hosts) this.byHost.set(host.toLowerCase(), tenant);
    }
    if (!this.byId.has(this.defaultTenantId)) {
      throw new Error(`The default tenant "${this.defaultTenantId}" does not exist`);
    }
  }

  /** The tenant that claims the request's host name, else the default tenant. */
  forHost(hostHeader: string | undefined): Tenant {
    const host = (hostHeader ?? '').replace(/:\d+$/, '').toLowerCase();
    return this.byHost.get(host) ?? (this.byId.get(this.defaultTenantId) as Tenant);
  }

  /** Every tenant. */
  all(): Tenant[] {
    return [...this.byId.values()];
  }

  get(id: string): Tenant | undefined {
    return this.byId.get(id);
  }
}

export async function tenantExists(db: Database, id: string): Promise<boolean> {
  return (await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, id))).length > 0;
}
