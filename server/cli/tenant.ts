/**
 * `npm run tenant -- …`: onboards institutions from their files (docs/tenants.md, D145). Like
 * `npm run staff`, each command first asks the running server (PGlite admits one process per data
 * directory) and opens the database itself only when no server answers.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { configFromEnv, type ServerConfig } from '../config';
import type { Database } from '../db/client';
import { HttpError } from '../errors';
import {
  addTenant,
  CLI_PUBLISHER,
  exportTenant,
  listTenants,
  publishTenantDefinition,
  replaceInstitution,
  TenantFileRefused,
  type TenantSummary,
} from '../platform';
import { askServer, cliHost, NoServer, onDatabase } from './runningServer';

const USAGE = `Usage: npm run tenant -- <command>
  npm run tenant -- add <id> --host <host>[,<host>...] --institution <file.json> --definition <file.json>
  npm run tenant -- publish <id> --definition <file.json>      prints the new version
  npm run tenant -- institution <id> --institution <file.json>  replaces the institution file
  npm run tenant -- list
  npm run tenant -- export <id> <folder>                        writes institution.json and definition.json
The files' JSON Schemas: tenants/schemas/. Each file is checked first; a refused file changes nothing.`;

/** A command's work, through the running server or, when none runs, on the database. */
async function viaServerOrDatabase<T>(
  config: ServerConfig,
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

async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8').catch(() => {
    throw new TenantFileRefused([`${file}: cannot be read`]);
  });
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new TenantFileRefused([`${file}: not JSON (${(error as Error).message})`]);
  }
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
  const hostOption = option('--host');
  const institutionFile = option('--institution');
  const definitionFile = option('--definition');
  const [command, id, folder] = args;
  const host = cliHost();
  const db = <T>(work: (database: Database) => Promise<T>) => onDatabase(config, work);
  try {
    if (command === 'add' && id && hostOption && institutionFile && definitionFile && !folder) {
      const body = {
        id,
        hosts: hostOption.split(','),
        institution: await readJson(institutionFile),
        definition: await readJson(definitionFile),
      };
      await viaServerOrDatabase(
        config,
        () => askServer(config, 'POST', '/platform/api/tenants', host, body),
        () => db((database) => addTenant(database, body)),
      );
      console.log(`Tenant "${id}" added at ${body.hosts.join(', ')}, definition version 1.`);
      return 0;
    }
    if (command === 'publish' && id && definitionFile && !folder) {
      const definition = await readJson(definitionFile);
      const answer = await viaServerOrDatabase<{ version: number }>(
        config,
        () =>
          askServer(config, 'POST', `/platform/api/tenants/${id}/versions`, host, { definition }),
        async () => ({
          version: await db((database) =>
            publishTenantDefinition(database, id, definition, CLI_PUBLISHER),
          ),
        }),
      );
      console.log(answer.version);
      return 0;
    }
    if (command === 'institution' && id && institutionFile && !folder) {
      const institution = await readJson(institutionFile);
      await viaServerOrDatabase(
        config,
        () =>
          askServer(config, 'PUT', `/platform/api/tenants/${id}/institution`, host, {
            institution,
          }),
        () => db((database) => replaceInstitution(database, id, institution)),
      );
      console.log(`The institution file of "${id}" has been replaced.`);
      return 0;
    }
    if (command === 'list' && !id) {
      const answer = await viaServerOrDatabase<{ tenants: TenantSummary[] }>(
        config,
        () => askServer(config, 'GET', '/platform/api/tenants', host),
        async () => ({ tenants: await db((database) => listTenants(database)) }),
      );
      console.log(formatList(answer.tenants));
      return 0;
    }
    if (command === 'export' && id && folder) {
      const files = await viaServerOrDatabase<Awaited<ReturnType<typeof exportTenant>>>(
        config,
        () => askServer(config, 'GET', `/platform/api/tenants/${id}/export`, host),
        () => db((database) => exportTenant(database, id)),
      );
      if (!files) throw new HttpError(404, 'There is no such tenant.');
      await mkdir(folder, { recursive: true });
      const schemas = path.relative(path.resolve(folder), path.resolve('tenants/schemas'));
      await writeFile(
        path.join(folder, 'institution.json'),
        `${JSON.stringify({ $schema: `${schemas}/institution.schema.json`, ...files.institution }, null, 2)}\n`,
      );
      await writeFile(
        path.join(folder, 'definition.json'),
        `${JSON.stringify(files.definition, null, 2)}\n`,
      );
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
