/**
 * `npm run tenant -- …`: onboards institutions from their files (docs/tenants.md, D145). Like
 * `npm run staff`, each command first asks the running server (PGlite admits one process per data
 * directory) and opens the database itself only when no server answers. Every file is checked with
 * every check the platform knows before anything changes (D194); `check` only checks.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { configFromEnv } from '../config';
import type { Database } from '../db/client';
import { HttpError } from '../errors';
import {
  addTenant,
  CLI_PUBLISHER,
  definitionFileProblems,
  exportTenant,
  institutionFileProblems,
  kindOfFile,
  listTenants,
  parseJson,
  problemLine,
  publishTenantDefinition,
  replaceInstitution,
  TenantFileRefused,
  type PublishAnswer,
  type TenantSummary,
} from '../platform';
import { askServer, cliHost, NoServer, onDatabase } from './runningServer';

const USAGE = `Usage: npm run tenant -- <command>
  npm run tenant -- add <id> --host <host>[,<host>...] --institution <file.json> --definition <file.json>
  npm run tenant -- publish <id> --definition <file.json> [--drop-keys]
      prints the new version; an unchanged file publishes none; --drop-keys publishes a version
      that renames or drops keys holding saved answers (refused without it, with their counts)
  npm run tenant -- institution <id> --institution <file.json>  replaces the institution file
  npm run tenant -- check <file.json>... [--tenant <id>]
      checks files as add and publish do, and changes nothing; with --tenant, a definition is
      also checked against that college's latest version and saved answers
  npm run tenant -- list
  npm run tenant -- export <id> <folder> [--version <n>]        writes institution.json and definition.json
The files' JSON Schemas: tenants/schemas/. Each file is checked first; a refused file changes nothing.`;

/** A command's work, through the running server or, when none runs, on the database. */
async function viaServerOrDatabase<T>(
  server: () => Promise<unknown>,
  database: () => Promise<T>,
): Promise<T> {
  try {
    return (await server()) as T;
  } catch (error) {
    if (!(error instanceof NoServer)) throw error;
  }
  return database();
}

/** A file's JSON; a file that cannot be read or parsed is refused with where it goes wrong. */
async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8').catch(() => {
    throw new TenantFileRefused([`${file}: cannot be read`]);
  });
  const parsed = parseJson(text);
  if (!parsed.ok)
    throw new TenantFileRefused([`${problemLine(file, parsed.problem)} (this is not JSON)`]);
  return parsed.data;
}

function formatList(tenants: readonly TenantSummary[]): string {
  return tenants
    .map((tenant) => {
      const latest = tenant.versions.at(-1);
      const published = latest
        ? `version ${latest.version}, ${new Date(latest.publishedAt).toISOString()} by ${latest.publishedBy}`
        : 'no version';
      return `${tenant.id}\t${tenant.name}\t${tenant.hosts.join(',')}\t${published}`;
    })
    .join('\n');
}

/** A file's problems by its kind (`$schema`, else what it holds), each line naming the file. */
function checkedFile(file: string, data: unknown): { kind: string | null; problems: string[] } {
  const kind = kindOfFile(data);
  if (!kind)
    return {
      kind,
      problems: [
        `${file}: (root): is neither an institution file (with "config") nor a definition file (with "pages")`,
      ],
    };
  const { problems } =
    kind === 'institution' ? institutionFileProblems(data) : definitionFileProblems(data);
  return { kind, problems: problems.map((problem) => problemLine(file, problem)) };
}

export async function main(argv: readonly string[], config = configFromEnv()): Promise<number> {
  const args = [...argv];
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const option = (name: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args.splice(index, 2)[1] : undefined;
  };
  const flag = (name: string) => {
    const index = args.indexOf(name);
    if (index >= 0) args.splice(index, 1);
    return index >= 0;
  };
  const hostOption = option('--host');
  const institutionFile = option('--institution');
  const definitionFile = option('--definition');
  const versionOption = option('--version');
  const tenantOption = option('--tenant');
  const dropKeys = flag('--drop-keys');
  const [command, id, folder] = args;
  const host = cliHost();
  const db = <T>(work: (database: Database) => Promise<T>) => onDatabase(config, work);
  const publish = (tenantId: string, definition: unknown, dryRun: boolean) =>
    viaServerOrDatabase<PublishAnswer>(
      () =>
        askServer(config, 'POST', `/platform/api/tenants/${tenantId}/versions`, host, {
          definition,
          ...(dropKeys ? { dropKeys } : {}),
          ...(dryRun ? { dryRun } : {}),
        }),
      () =>
        db((database) =>
          publishTenantDefinition({ db: database, config }, tenantId, definition, CLI_PUBLISHER, {
            dropKeys,
            dryRun,
          }),
        ),
    );
  try {
    if (command === 'add' && id && hostOption && institutionFile && definitionFile && !folder) {
      const body = {
        id,
        hosts: hostOption.split(','),
        institution: await readJson(institutionFile),
        definition: await readJson(definitionFile),
      };
      await viaServerOrDatabase(
        () => askServer(config, 'POST', '/platform/api/tenants', host, body),
        () => db((database) => addTenant({ db: database, config }, body)),
      );
      console.log(`Tenant "${id}" added at ${body.hosts.join(', ')}, definition version 1.`);
      return 0;
    }
    if (command === 'publish' && id && definitionFile && !folder) {
      const answer = await publish(id, await readJson(definitionFile), false);
      if (answer.unchanged) {
        console.log(
          `Unchanged: the file equals version ${answer.version}, so no version was published.`,
        );
        return 0;
      }
      console.log(answer.version);
      for (const dropped of answer.dropped) console.log(`Dropped: ${dropped}.`);
      return 0;
    }
    if (command === 'check' && id && !institutionFile && !definitionFile) {
      return await check(args.slice(1), tenantOption, (definition) =>
        publish(tenantOption ?? '', definition, true),
      );
    }
    if (command === 'institution' && id && institutionFile && !folder) {
      const institution = await readJson(institutionFile);
      await viaServerOrDatabase(
        () =>
          askServer(config, 'PUT', `/platform/api/tenants/${id}/institution`, host, {
            institution,
          }),
        () => db((database) => replaceInstitution({ db: database, config }, id, institution)),
      );
      console.log(`The institution file of "${id}" has been replaced.`);
      return 0;
    }
    if (command === 'list' && !id) {
      const answer = await viaServerOrDatabase<{ tenants: TenantSummary[] }>(
        () => askServer(config, 'GET', '/platform/api/tenants', host),
        async () => ({ tenants: await db((database) => listTenants(database)) }),
      );
      console.log(formatList(answer.tenants));
      return 0;
    }
    if (command === 'export' && id && folder && args.length === 3) {
      const version = versionOption === undefined ? undefined : Number(versionOption);
      if (version !== undefined && !(Number.isInteger(version) && version > 0)) {
        console.error('--version takes a version number, such as 3.');
        return 2;
      }
      const query = version === undefined ? '' : `?version=${version}`;
      const files = await viaServerOrDatabase<Awaited<ReturnType<typeof exportTenant>>>(
        () => askServer(config, 'GET', `/platform/api/tenants/${id}/export${query}`, host),
        () => db((database) => exportTenant(database, id, version)),
      );
      if (!files)
        throw new HttpError(
          404,
          `There is no such tenant${version ? ', or no such version' : ''}.`,
        );
      await writeExport(folder, files);
      console.log(
        `Wrote ${folder}/institution.json and ${folder}/definition.json (version ${files.version}).`,
      );
      return 0;
    }
    console.error(USAGE);
    return 2;
  } catch (error) {
    const problems =
      error instanceof TenantFileRefused
        ? error.problems
        : error instanceof HttpError
          ? (error.extra.problems ?? [])
          : [];
    console.error(
      error instanceof TenantFileRefused ? 'The files were refused.' : (error as Error).message,
    );
    for (const problem of problems) console.error(`  ${problem}`);
    return 1;
  }
}

/** Writes an export's two files, each naming its JSON Schema, as the repository's colleges do. */
async function writeExport(
  folder: string,
  files: { institution: unknown; definition: unknown },
): Promise<void> {
  await mkdir(folder, { recursive: true });
  const schemas = path
    .relative(path.resolve(folder), path.resolve('tenants/schemas'))
    .split(path.sep)
    .join('/');
  const withSchema = (name: string, data: unknown) =>
    `${JSON.stringify({ $schema: `${schemas}/${name}.schema.json`, ...(data as object) }, null, 2)}\n`;
  await writeFile(
    path.join(folder, 'institution.json'),
    withSchema('institution', files.institution),
  );
  await writeFile(path.join(folder, 'definition.json'), withSchema('definition', files.definition));
}

/** `check`: every file's problems; with a tenant, a definition's publish as a dry run. */
async function check(
  files: readonly string[],
  tenantId: string | undefined,
  dryRun: (definition: unknown) => Promise<PublishAnswer>,
): Promise<number> {
  let refused = 0;
  for (const file of files) {
    let data: unknown;
    try {
      data = await readJson(file);
    } catch (error) {
      if (!(error instanceof TenantFileRefused)) throw error;
      for (const problem of error.problems) console.error(problem);
      refused++;
      continue;
    }
    const { kind, problems } = checkedFile(file, data);
    if (problems.length === 0 && kind === 'definition' && tenantId) {
      try {
        const answer = await dryRun(data);
        console.log(
          answer.unchanged
            ? `${file}: no problems; it equals version ${answer.version} of "${tenantId}", so a publish would make no version.`
            : `${file}: no problems; a publish would make version ${answer.version} of "${tenantId}".`,
        );
        for (const dropped of answer.dropped) console.log(`  With --drop-keys: ${dropped}.`);
        continue;
      } catch (error) {
        if (!(error instanceof TenantFileRefused || error instanceof HttpError)) throw error;
        const lines =
          error instanceof TenantFileRefused ? error.problems : (error.extra.problems ?? []);
        problems.push(...(lines.length > 0 ? lines : [`${file}: ${error.message}`]));
      }
    }
    if (problems.length === 0) {
      console.log(`${file}: no problems (${kind} file).`);
      continue;
    }
    refused++;
    for (const problem of problems) console.error(problem);
  }
  if (refused > 0)
    console.error(
      `${refused} of ${files.length} ${files.length === 1 ? 'file has' : 'files have'} problems.`,
    );
  return refused > 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
