/**
 * Tenants: each institution brings its institution file and its definition as data (D145). The
 * definitions are immutable versions numbered without gaps per tenant; a tenant serves its latest
 * and reads an application under the version it was submitted with. The embedded default seeds
 * the fictional institution of definitions/.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { loadDefinition, type Definition } from '../runtime';
import { applicationDefinitionData, type InstitutionConfig } from '../definitions';
import {
  parseInstitutionFile,
  withoutSchemaLink,
  type InstitutionFile,
} from '../definitions/institutionFile';
import { seedInstitutionFile } from '../definitions/seed';
import type { FastifyBaseLogger } from 'fastify';
import { collegeOf, tenantOrigin, type OriginConfig } from './tenantOrigin';
import type { Database } from './db/client';
import { errorFields } from './security/logFields';
import { runInTenant } from './db/tenantScope';
import { definitionVersions, tenants } from './db/schema';
import type { Tenant } from './tenant';
import type { MailCollege } from './mail/templates';
import { insertVersion, NoSuchTenant, publishDefinition } from './tenantVersions';

export {
  NoSuchTenant,
  publishDefinition,
  publishVersion,
  type PublishOptions,
  type StoredVersion,
  type Transaction,
} from './tenantVersions';

/** Definitions built into the platform, by id: the seeds of new tenants. */
const applicationDefinition = loadDefinition(applicationDefinitionData);
export const definitionsById: ReadonlyMap<string, Definition> = new Map([
  [applicationDefinition.id, applicationDefinition],
]);

/** What a new tenant starts with: its version 1 is the definition of `definitionId`. */
export interface TenantSeed {
  readonly id: string;
  readonly name: string;
  readonly definitionId: string;
  readonly hosts: readonly string[];
  readonly institution?: InstitutionFile;
}

export const DEFAULT_TENANT_SEED: TenantSeed = {
  id: 'northfield',
  name: seedInstitutionFile.config.partner_name,
  definitionId: applicationDefinition.id,
  hosts: ['localhost', '127.0.0.1'],
  institution: seedInstitutionFile,
};

/** Who published a version, as the list of versions shows it. */
export const SEED_PUBLISHER = 'seed';

/**
 * Creates a tenant if it does not exist yet, and gives a tenant without a published definition
 * (a new one, or one created before versions existed) its seed's definition as version 1.
 */
export async function ensureTenant(
  db: Database,
  seed: TenantSeed,
  definitions: ReadonlyMap<string, Definition> = definitionsById,
): Promise<void> {
  const institution = seed.institution ?? seedInstitutionFile;
  await db
    .insert(tenants)
    .values({
      id: seed.id,
      name: seed.name,
      definitionId: seed.definitionId,
      hosts: [...seed.hosts],
      institution,
    })
    .onConflictDoNothing({ target: tenants.id });
  await db
    .update(tenants)
    .set({ institution })
    .where(sql`${tenants.id} = ${seed.id} and ${tenants.institution} is null`);
  await runInTenant(seed.id, async () => {
    const [row] = await db
      .select({ definitionId: tenants.definitionId })
      .from(tenants)
      .where(eq(tenants.id, seed.id));
    const existing = await db
      .select({ version: definitionVersions.version })
      .from(definitionVersions)
      .where(eq(definitionVersions.tenantId, seed.id))
      .limit(1);
    if (existing.length > 0 || !row) return;
    const definition = definitions.get(row.definitionId);
    if (!definition)
      throw new Error(`Tenant "${seed.id}" uses an unknown definition "${row.definitionId}"`);
    await publishDefinition(db, seed.id, definition, SEED_PUBLISHER, { ifNone: true });
  });
}

/** A new tenant's id or one of its hosts is already taken. */
export class TenantTaken extends Error {}

/**
 * Creates a new tenant with its definition as version 1, in one transaction. The directory table is
 * locked against other creations while the id and hosts are checked, so of two parallel additions
 * of one id (or one host) exactly one succeeds and the other is refused; a reader never sees a
 * tenant without its version 1.
 */
export async function createTenant(
  db: Database,
  seed: Required<Omit<TenantSeed, 'definitionId'>>,
  definition: Definition,
  publishedBy: string,
): Promise<void> {
  await runInTenant(seed.id, () =>
    db.transaction(async (tx) => {
      await tx.execute(sql`lock table ${tenants} in share row exclusive mode`);
      const taken = await tx.select({ id: tenants.id, hosts: tenants.hosts }).from(tenants);
      if (taken.some((row) => row.id === seed.id))
        throw new TenantTaken(`id: a tenant "${seed.id}" already exists`);
      for (const row of taken)
        for (const host of seed.hosts)
          if (row.hosts.includes(host))
            throw new TenantTaken(`hosts: "${host}" already belongs to "${row.id}"`);
      await tx.insert(tenants).values({
        id: seed.id,
        name: seed.name,
        definitionId: definition.id,
        hosts: [...seed.hosts],
        institution: seed.institution,
      });
      await insertVersion(tx, seed.id, 1, definition, publishedBy);
    }),
  );
}

/** Replaces a tenant's institution file (checked first; a bad file changes nothing). */
export async function updateInstitution(
  db: Database,
  tenantId: string,
  data: unknown,
): Promise<InstitutionFile> {
  const stored = withoutSchemaLink(parseInstitutionFile(data));
  const changed = await db
    .update(tenants)
    .set({
      institution: stored,
      name: stored.config.partner_name,
      revision: sql`${tenants.revision} + 1`,
    })
    .where(eq(tenants.id, tenantId))
    .returning({ id: tenants.id });
  if (changed.length === 0) throw new NoSuchTenant(tenantId);
  return stored;
}

export interface PublishedVersion {
  readonly version: number;
  readonly publishedAt: Date;
  readonly publishedBy: string;
}

/** A tenant's published versions, oldest first. */
export function publishedVersions(db: Database, tenantId: string): Promise<PublishedVersion[]> {
  return runInTenant(tenantId, () =>
    db
      .select({
        version: definitionVersions.version,
        publishedAt: definitionVersions.publishedAt,
        publishedBy: definitionVersions.publishedBy,
      })
      .from(definitionVersions)
      .where(eq(definitionVersions.tenantId, tenantId))
      .orderBy(asc(definitionVersions.version)),
  );
}

/** Every version's data of a tenant, as loaded at start: parsed once, on first use. */
class VersionShelf {
  private readonly parsed = new Map<number, Definition>();
  constructor(private readonly data: ReadonlyMap<number, unknown>) {}

  get latest(): number {
    return Math.max(...this.data.keys());
  }

  get versions(): number[] {
    return [...this.data.keys()].sort((a, b) => a - b);
  }

  at(version: number): Definition | undefined {
    const known = this.parsed.get(version);
    if (known) return known;
    const data = this.data.get(version);
    if (data === undefined) return undefined;
    const definition = loadDefinition(data);
    this.parsed.set(version, definition);
    return definition;
  }
}

/** What the directory was loaded from: each tenant's id and revision, in one comparable string. */
const revisionsOf = (rows: readonly { id: string; revision: number }[]) =>
  rows
    .map((row) => `${row.id}:${row.revision}`)
    .sort()
    .join(',');

export class TenantDirectory {
  private byId = new Map<string, Tenant>();
  private byHost = new Map<string, Tenant>();
  private loadedRevisions = '';

  constructor(private readonly defaultTenantId: string) {}

  /**
   * Reloads when a tenant was added or changed since the last load, by this process or another
   * (one small read of the directory table); true when it did.
   */
  async refresh(db: Database): Promise<boolean> {
    const rows = await db.select({ id: tenants.id, revision: tenants.revision }).from(tenants);
    if (revisionsOf(rows) === this.loadedRevisions) return false;
    await this.load(db);
    return true;
  }

  /**
   * Keeps the directory current: a refresh every `everyMs`, errors left to the next round (a
   * database outage is reported by the readiness check, not here). Returns the stop function.
   */
  follow(db: Database, everyMs: number, log: Pick<FastifyBaseLogger, 'warn'>): () => void {
    const onError = (error: unknown) =>
      log.warn({ err: errorFields(error) }, 'tenant directory refresh failed');
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.refresh(db)
        .catch(onError)
        .finally(() => {
          running = false;
        });
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  async load(db: Database): Promise<void> {
    const rows = await db.select().from(tenants);
    const byId = new Map<string, Tenant>();
    const byHost = new Map<string, Tenant>();
    for (const row of rows) {
      const versions = await runInTenant(row.id, () =>
        db
          .select({
            version: definitionVersions.version,
            definition: definitionVersions.definition,
          })
          .from(definitionVersions)
          .where(eq(definitionVersions.tenantId, row.id)),
      );
      if (versions.length === 0) throw new Error(`Tenant "${row.id}" has no published definition`);
      const shelf = new VersionShelf(new Map(versions.map((v) => [v.version, v.definition])));
      const definitionVersion = shelf.latest;
      const definition = shelf.at(definitionVersion) as Definition;
      const tenant: Tenant = {
        id: row.id,
        name: row.name,
        definition,
        definitionVersion,
        institution: row.institution ?? seedInstitutionFile,
        hosts: row.hosts,
        versions: shelf.versions,
        definitionAt: (version) => (version ? shelf.at(version) : undefined) ?? definition,
      };
      byId.set(row.id, tenant);
      for (const host of row.hosts) byHost.set(host.toLowerCase(), tenant);
    }
    if (!byId.has(this.defaultTenantId)) {
      throw new Error(`The default tenant "${this.defaultTenantId}" does not exist`);
    }
    this.byId = byId;
    this.byHost = byHost;
    this.loadedRevisions = revisionsOf(rows);
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

  /** A tenant by id; the default tenant for an id it does not know. */
  tenantOf(id: string): Tenant {
    return this.byId.get(id) ?? (this.byId.get(this.defaultTenantId) as Tenant);
  }

  /** The configuration a tenant's mails and prints speak with. */
  institutionOf(id: string): InstitutionConfig {
    return this.tenantOf(id).institution.config;
  }

  /** Where a tenant's links lead (tenantOrigin, D196). */
  originOf(id: string, config: OriginConfig): string {
    return tenantOrigin(this.tenantOf(id), config);
  }

  /** What a tenant's mails speak with and link to (D196). */
  collegeOf(id: string, config: OriginConfig): MailCollege {
    return collegeOf(this.tenantOf(id), config);
  }
}

export async function tenantExists(db: Database, id: string): Promise<boolean> {
  return (await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, id))).length > 0;
}
