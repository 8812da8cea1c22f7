/**
 * npm run lookup:import -- <category> <file.csv> [--tenant <id>]
 *
 * Imports an institution's CSV list (hs_ceeb, college_ceeb or address) into the tenant's lookup
 * tables: every row is checked, bad rows are reported by line number and nothing is imported unless
 * all rows are good. On PostgreSQL (DATABASE_URL) it runs beside the servers, which search the new
 * list from their next request. The embedded PGlite is single-process: stop the server first. Like
 * the other commands it opens only a database a server's start has made, and says which (D195).
 */
import { readFile } from 'node:fs/promises';
import { LOOKUP_CATEGORIES, type LookupCategoryName } from '../contract';
import { configFromEnv } from '../server/config';
import { runInTenant } from '../server/db/tenantScope';
import { importList } from '../server/lookup/importList';
import { TenantDirectory } from '../server/tenants';
import { wantsHelp } from '../server/cli/help';
import { onDatabase } from '../server/cli/runningServer';

const USAGE = `Usage: npm run lookup:import -- <${LOOKUP_CATEGORIES.join('|')}> <file.csv> [--tenant <id>]`;

/** The import refused, with the exit code to leave with. */
class Refused extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main() {
  const args = process.argv.slice(2);
  if (wantsHelp(args)) {
    console.log(USAGE);
    return;
  }
  const tenantFlag = args.indexOf('--tenant');
  let tenantId: string | undefined;
  if (tenantFlag >= 0) {
    tenantId = args[tenantFlag + 1];
    if (!tenantId) fail(USAGE);
    args.splice(tenantFlag, 2);
  }
  const [category, file] = args;
  if (!category || !file || args.length !== 2) fail(USAGE);
  if (!(LOOKUP_CATEGORIES as readonly string[]).includes(category))
    fail(`Unknown category "${category}". ${USAGE}`);
  const csv = await readFile(file, 'utf8').catch((error: Error) =>
    fail(`Cannot read ${file}: ${error.message}`),
  );

  const config = configFromEnv();
  if (!config.databaseUrl) {
    // PGlite: only one process may open the data directory.
    const running = await fetch(`http://127.0.0.1:${config.port}/healthz`, {
      signal: AbortSignal.timeout(1000),
    })
      .then((response) => response.ok)
      .catch(() => false);
    if (running)
      fail(
        `A server is running on port ${config.port} with the embedded database (${config.dataDir}). ` +
          'PGlite is single-process: stop the server, run the import, then start it again.',
      );
  }
  await onDatabase(config, async (db) => {
    const directory = new TenantDirectory(config.defaultTenant);
    await directory.load(db);
    const tenant = directory.get(tenantId ?? config.defaultTenant);
    if (!tenant) throw new Refused(`Unknown tenant "${tenantId}".`, 2);
    // In that tenant's scope: on PostgreSQL, row-level security shows it no other (D56).
    const result = await runInTenant(tenant.id, () =>
      importList(db, tenant, category as LookupCategoryName, csv, new Date()),
    );
    if (!result.ok)
      throw new Refused(
        [
          `Nothing was imported: ${result.problems.length} problem(s) in ${file}.`,
          ...result.problems.map((problem) => `  line ${problem.line}: ${problem.message}`),
        ].join('\n'),
        1,
      );
    console.log(
      `Imported ${result.count} entries into the ${category} list of tenant "${tenant.id}" (version ${result.version}).`,
    );
  }).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = error instanceof Refused ? error.code : 1;
  });
}

await main();
