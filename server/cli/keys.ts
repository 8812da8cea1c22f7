/**
 * `npm run keys -- …`: the master key's rotation (D155) and the data keys' (D167),
 * docs/operations.md. It works on the database itself: on PostgreSQL beside the running servers, on
 * the embedded database with the server stopped (one process per data directory).
 */
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { configFromEnv, type ServerConfig } from '../config';
import { MASTER_KEY_FILE, masterKeys, PREVIOUS_MASTER_KEY_FILE } from '../crypto/masterKey';
import { AnswerVault } from '../crypto/answerVault';
import { TenantKeys } from '../crypto/dataKeys';
import {
  finishedInRun,
  finishReencryptionRun,
  prepareTenant,
  REENCRYPT_BATCH,
  reencryptionRun,
  reencryptTenant,
  type ReencryptProgress,
} from '../atRest/reencryption';
import { dataKeysByMasterKey, rewrapDataKeys } from '../crypto/rotation';
import { createStorage } from '../storage/create';
import type { Database } from '../db/client';
import { tenants } from '../db/schema';
import { secretFile } from '../secrets';
import { wantsHelp } from './help';
import { onDatabase } from './runningServer';
import { whileHolding } from '../db/advisoryLock';

const USAGE = `Usage: npm run keys -- <command>
  npm run keys -- status                 how many tenants' data keys each master key wraps
  npm run keys -- rotate [--new-master-key] [--reencrypt] [--pause <ms>]
      re-wraps every tenant's data key still under the previous master key (MASTER_KEY_PREVIOUS,
      else DATA_DIR/${PREVIOUS_MASTER_KEY_FILE}) under the current one (MASTER_KEY, else
      DATA_DIR/${MASTER_KEY_FILE}); stopped at any point, it is run again to finish.
      --new-master-key  with the key files of DATA_DIR: ${MASTER_KEY_FILE} becomes
                        ${PREVIOUS_MASTER_KEY_FILE} and a new random ${MASTER_KEY_FILE} is written first
      --reencrypt       then gives each tenant a new data key, seals its answers and stored objects
                        again under it in batches of ${REENCRYPT_BATCH} applications, and retires the
                        old data key once nothing is under it (a stopped run is finished by the next,
                        which leaves the tenants it had done under the key it gave them)
      --pause <ms>      waits between tenants, and between batches with --reencrypt
On the embedded database, stop the server first. The procedure: docs/operations.md.`;

/** The advisory lock of `rotate --reencrypt` on PostgreSQL (D183). */
const REENCRYPTION_LOCK = 7_240_183;

const ANOTHER_RUN =
  'Another rotate --reencrypt is running on this database: this one stops and changed nothing; that one finishes the work.';

async function tenantIds(db: Database): Promise<string[]> {
  const rows = await db.select({ id: tenants.id }).from(tenants);
  return rows.map((row) => row.id).sort();
}

/** The key files' step of --new-master-key; a message when it cannot be taken. */
async function newMasterKeyFile(config: ServerConfig): Promise<string | undefined> {
  if (config.masterKey || config.masterKeyPrevious)
    return 'MASTER_KEY is configured: put the new key in MASTER_KEY and the old one in MASTER_KEY_PREVIOUS, then run rotate without --new-master-key.';
  const previous = path.join(config.dataDir, PREVIOUS_MASTER_KEY_FILE);
  if (existsSync(previous))
    return `${previous} exists: a rotation is under way. Run rotate to finish it, then remove that file.`;
  await rename(path.join(config.dataDir, MASTER_KEY_FILE), previous);
  secretFile(config.dataDir, MASTER_KEY_FILE);
  return undefined;
}

interface Arguments {
  readonly command: 'status' | 'rotate';
  readonly newKey: boolean;
  readonly reencrypt: boolean;
  readonly pauseMs: number;
}

/** The command line read, or what is wrong with it. */
function parse(argv: readonly string[]): Arguments | string {
  const args = [...argv];
  let pauseMs = 0;
  const pauseIndex = args.indexOf('--pause');
  if (pauseIndex >= 0) {
    const [, value] = args.splice(pauseIndex, 2);
    pauseMs = Number(value);
    if (value === undefined || !/^\d+$/.test(value) || !Number.isSafeInteger(pauseMs))
      return `--pause takes a whole number of milliseconds, not ${JSON.stringify(value ?? '')}.`;
  }
  const flags = new Set(args.filter((arg) => arg.startsWith('-')));
  const [command, ...rest] = args.filter((arg) => !arg.startsWith('-'));
  const unknown = [...flags].filter(
    (flag) => flag !== '--new-master-key' && flag !== '--reencrypt',
  );
  if (unknown.length > 0) return `Unknown option: ${unknown.join(' ')}.`;
  if (command !== 'status' && command !== 'rotate')
    return command === undefined ? 'Which command?' : `Unknown command: ${command}.`;
  if (rest.length > 0) return `Unexpected argument: ${rest.join(' ')}.`;
  if (command === 'status' && flags.size + (pauseIndex >= 0 ? 1 : 0) > 0)
    return 'status takes no option.';
  return {
    command,
    newKey: flags.has('--new-master-key'),
    reencrypt: flags.has('--reencrypt'),
    pauseMs,
  };
}

/** One line of a re-encryption's progress. */
function progressLine(progress: ReencryptProgress): string {
  const what =
    progress.retired.length > 0
      ? `retired data key version(s) ${progress.retired.join(', ')}`
      : progress.objects > 0
        ? `${progress.objects} object(s) re-encrypted`
        : `${progress.applications} application(s) re-encrypted`;
  return `${progress.tenantId}\tversion ${progress.version}\t${what}`;
}

/** Every tenant's values sealed again under a new data key, the old ones retired (D167). */
async function reencryptAll(
  config: ServerConfig,
  db: Database,
  ids: readonly string[],
  pauseMs: number,
): Promise<void> {
  // No cache of the current version: this process makes the new ones.
  const keys = new TenantKeys(db, masterKeys(config), 0);
  const vault = new AnswerVault(keys);
  const storage = createStorage(config, keys);
  // A run stopped midway is resumed: the tenants it finished keep the key it gave them.
  const run = await reencryptionRun(db);
  const finished = new Map<string, number | undefined>();
  for (const tenantId of ids) finished.set(tenantId, await finishedInRun(db, tenantId, run));
  // Every new key first: the servers' caches of the current version expire for all tenants at once.
  for (const tenantId of ids)
    if (finished.get(tenantId) === undefined) await prepareTenant(db, vault, tenantId);
  for (const tenantId of ids) {
    const done = finished.get(tenantId);
    if (done !== undefined) {
      console.log(`${tenantId}\tversion ${done}\tdone by the run this one resumes`);
      continue;
    }
    const version = await reencryptTenant(db, vault, storage, tenantId, {
      pauseMs,
      onProgress: (progress) => console.log(progressLine(progress)),
    });
    console.log(
      version === undefined
        ? `${tenantId}\tno data key yet: nothing to re-encrypt`
        : `${tenantId}\tversion ${version}\tdone`,
    );
  }
  await finishReencryptionRun(db, run);
  console.log(
    `Every tenant's answers and objects are under its newest data key; the older ones are retired.`,
  );
}

export async function main(argv: readonly string[], config = configFromEnv()): Promise<number> {
  if (wantsHelp(argv)) {
    console.log(USAGE);
    return 0;
  }
  const parsed = parse(argv);
  if (typeof parsed === 'string') {
    console.error(`${parsed}\n\n${USAGE}`);
    return 2;
  }
  const { command, newKey, reencrypt, pauseMs } = parsed;
  try {
    if (command === 'status')
      return await onDatabase(config, async (db) => {
        const current = masterKeys(config).current.id;
        for (const [id, count] of await dataKeysByMasterKey(db, await tenantIds(db)))
          console.log(`${id}\t${count} tenant(s)${id === current ? '\t(current)' : ''}`);
        return 0;
      });
    const rotate = async (db: Database) => {
      const keys = masterKeys(config);
      const ids = await tenantIds(db);
      const count = await rewrapDataKeys(db, keys, ids, async (progress) => {
        console.log(
          `${progress.tenantId}\t${progress.rewrapped ? 're-wrapped' : 'already under the current key'}`,
        );
        if (pauseMs > 0) await sleep(pauseMs);
      });
      console.log(
        `${count} data key(s) re-wrapped under ${keys.current.id}. Every data key is under the current master key: the previous one can be retired (docs/operations.md).`,
      );
      return 0;
    };
    // The key files change once the database is known to be there and not in use (D195).
    return await onDatabase(config, async (db) => {
      if (newKey) {
        const refused = await newMasterKeyFile(config);
        if (refused) throw new Error(refused);
      }
      if (!reencrypt) return rotate(db);
      // Two runs at once would each make a new version of a tenant's key (D183).
      const code = await whileHolding(db, REENCRYPTION_LOCK, async () => {
        await rotate(db);
        await reencryptAll(config, db, await tenantIds(db), pauseMs);
        return 0;
      });
      if (code === undefined) throw new Error(ANOTHER_RUN);
      return code;
    });
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
