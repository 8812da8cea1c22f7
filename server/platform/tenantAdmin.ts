/**
 * Onboarding institutions (docs/tenants.md, D145): add a tenant from its two files, publish a new
 * definition version, replace the institution file, list and export. Every file passes every check
 * of definitionChecks.ts before anything is written (D194); a refused file answers each problem
 * with its path, and nothing changes. A publish and a replaced institution file are audited.
 */
import { eq } from 'drizzle-orm';
import { withoutSchemaLink, type InstitutionFile } from '../../definitions/institutionFile';
import type { Definition } from '../../runtime';
import type { ServerConfig } from '../config';
import type { Database } from '../db/client';
import { runInTenant } from '../db/tenantScope';
import { definitionVersions, tenants } from '../db/schema';
import { audit, type Actor } from '../db/auditTrail';
import {
  createTenant,
  publishedVersions,
  publishVersion,
  updateInstitution,
  TenantTaken,
  type PublishedVersion,
} from '../tenants';
import {
  definitionFileProblems,
  institutionFileProblems,
  type FileProblem,
} from './definitionChecks';
import { heldKeyProblems, heldKeysDropped, heldKeyWords } from './savedAnswers';

/** A file refused on the way in: every problem, each with the path it is at. */
export class TenantFileRefused extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`The files were refused:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  }
}

/** What the administration works with: the database, and the clock its audit rows are dated by. */
export interface AdminContext {
  readonly db: Database;
  readonly config: ServerConfig;
}

/** `definition: pages[0].children[1]: must not be empty`: a problem as the operator reads it. */
export const problemLine = (file: string, problem: FileProblem) =>
  `${file}: ${problem.path}: ${problem.message}`;

const lines = (file: string, problems: readonly FileProblem[]) =>
  problems.map((problem) => problemLine(file, problem));

const TENANT_ID = /^[a-z][a-z0-9-]{1,39}$/;
const HOST =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The command line, as the staff audit log names it (`The command line` in the console). */
const cliActor = (tenantId: string): Actor => ({ tenantId, staffUserId: null, name: 'cli' });

export interface NewTenant {
  readonly id: string;
  readonly hosts: readonly string[];
  readonly institution: unknown;
  readonly definition: unknown;
}

/** Who a tenant's versions were published by when the command line did it. */
export const CLI_PUBLISHER = 'command line';

/** Adds a tenant with its two files and publishes the definition as its version 1. */
export async function addTenant(
  ctx: AdminContext,
  request: NewTenant,
): Promise<{ version: number }> {
  const problems: string[] = [];
  if (!TENANT_ID.test(request.id))
    problems.push('id: use 2 to 40 lower-case letters, digits or hyphens, starting with a letter');
  const hosts = request.hosts.map((host) => host.trim().toLowerCase());
  if (hosts.length === 0) problems.push('hosts: name at least one host');
  for (const host of hosts) if (!HOST.test(host)) problems.push(`hosts: "${host}" is no host name`);
  const institution = institutionFileProblems(request.institution);
  const definition = definitionFileProblems(request.definition);
  problems.push(
    ...lines('institution', institution.problems),
    ...lines('definition', definition.problems),
  );
  if (problems.length > 0 || !institution.file || !definition.definition)
    throw new TenantFileRefused(problems);

  const seed = {
    id: request.id,
    name: institution.file.config.partner_name,
    hosts,
    institution: institution.file,
  };
  await createTenant(ctx.db, seed, definition.definition, CLI_PUBLISHER).catch((error: unknown) => {
    throw error instanceof TenantTaken ? new TenantFileRefused([error.message]) : error;
  });
  await runInTenant(request.id, () =>
    audit(ctx, cliActor(request.id), 'form.published', null, 'version 1 (college added)'),
  );
  return { version: 1 };
}

/** The same form: equal but for the `version` a publish gives it. */
function sameForm(stored: unknown, definition: Definition): boolean {
  const canonical = (value: unknown): string =>
    Array.isArray(value)
      ? `[${value.map(canonical).join(',')}]`
      : typeof value === 'object' && value !== null
        ? `{${Object.entries(value)
            .filter(([name, entry]) => name !== 'version' && entry !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([name, entry]) => `${JSON.stringify(name)}:${canonical(entry)}`)
            .join(',')}}`
        : JSON.stringify(value);
  return canonical(stored) === canonical(definition);
}

export interface PublishRequest {
  /** Publish even when keys that hold saved answers are renamed or dropped. */
  readonly dropKeys?: boolean;
  /** Check everything a publish checks, and publish nothing (`npm run tenant -- check --tenant`). */
  readonly dryRun?: boolean;
}

export interface PublishAnswer {
  /** The new version; the latest one when nothing was published. */
  readonly version: number;
  /** The file equals the latest version: no version was made. */
  readonly unchanged: boolean;
  /** Keys holding saved answers that this version drops (with `dropKeys`), in words. */
  readonly dropped: readonly string[];
}

/** A dry run's answer, thrown to roll its transaction back. */
class DryRun extends Error {
  constructor(readonly answer: PublishAnswer) {
    super('dry run');
  }
}

/** Publishes a definition file as the tenant's next version, unless it equals the latest one. */
export async function publishTenantDefinition(
  ctx: AdminContext,
  tenantId: string,
  data: unknown,
  publishedBy: string,
  request: PublishRequest = {},
): Promise<PublishAnswer> {
  const checked = definitionFileProblems(data);
  if (!checked.definition) throw new TenantFileRefused(lines('definition', checked.problems));
  const definition = checked.definition;
  let dropped: string[] = [];
  const publishing = publishVersion(ctx.db, tenantId, definition, publishedBy, {
    before: async (tx, latest) => {
      if (latest && sameForm(latest.definition, definition)) {
        if (request.dryRun) throw new DryRun({ version: latest.version, unchanged: true, dropped });
        return 'unchanged';
      }
      const held = latest ? await heldKeysDropped(tx, tenantId, latest.definition, definition) : [];
      if (held.length > 0 && !request.dropKeys)
        throw new TenantFileRefused(
          lines('definition', heldKeyProblems(held, latest?.version ?? 0)),
        );
      dropped = held.map(heldKeyWords);
      if (request.dryRun)
        throw new DryRun({ version: (latest?.version ?? 0) + 1, unchanged: false, dropped });
    },
    after: (tx, version) =>
      audit(
        { db: tx, config: ctx.config },
        cliActor(tenantId),
        'form.published',
        null,
        [
          `version ${version}`,
          ...(dropped.length > 0 ? [`dropped keys that held answers: ${dropped.length}`] : []),
        ].join('; '),
      ),
  });
  try {
    const { version, published } = await publishing;
    return { version, unchanged: !published, dropped };
  } catch (error) {
    if (error instanceof DryRun) return error.answer;
    throw error;
  }
}

/** Replaces the tenant's institution file. */
export async function replaceInstitution(
  ctx: AdminContext,
  tenantId: string,
  data: unknown,
): Promise<void> {
  const checked = institutionFileProblems(data);
  if (!checked.file) throw new TenantFileRefused(lines('institution', checked.problems));
  const file = checked.file;
  await runInTenant(tenantId, () =>
    ctx.db.transaction(async (tx) => {
      await updateInstitution(tx, tenantId, file);
      await audit({ db: tx, config: ctx.config }, cliActor(tenantId), 'institution.replaced');
    }),
  );
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

/**
 * The tenant's institution file and a definition version (its latest unless `version` names one),
 * as a college would start from them; undefined when the tenant or the version does not exist.
 */
export async function exportTenant(
  db: Database,
  tenantId: string,
  version?: number,
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
  const chosen =
    version === undefined
      ? versions.reduce<(typeof versions)[number] | undefined>(
          (best, candidate) => (!best || candidate.version > best.version ? candidate : best),
          undefined,
        )
      : versions.find((candidate) => candidate.version === version);
  if (!chosen) return undefined;
  return {
    institution: withoutSchemaLink(row.institution),
    definition: chosen.definition,
    version: chosen.version,
  };
}
