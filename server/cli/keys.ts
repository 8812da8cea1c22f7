/**
 * `npm run keys -- …`: the master key's rotation (D155, docs/operations.md). It works on the
 * database itself: on PostgreSQL beside the running servers, on the embedded database with the
 * server stopped (one process per data directory).
 */
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { configFromEnv, type ServerConfig } from '../config';
import { MASTER_KEY_FILE, masterKeys, PREVIOUS_MASTER_KEY_FILE } from '../crypto/masterKey';
import { dataKeysByMasterKey, rewrapDataKeys } from '../crypto/rotation';
import type { Database } from '../db/client';
import { tenants } from '../db/schema';
import { secretFile } from '../secrets';
import { wantsHelp } from './help';
import { onDatabase } from './runningServer';

const USAGE = `Usage: npm run keys -- <command>
  npm run keys -- status                 how many tenants' data keys each master key wraps
  npm run keys -- rotate [--new-master-key] [--pause <ms>]
      re-wraps every tenant's data key still under the previous master key (MASTER_KEY_PREVIOUS,
      else DATA_DIR/${PREVIOUS_MASTER_KEY_FILE}) under the current one (MASTER_KEY, else
      DATA_DIR/${MASTER_KEY_FILE}); stopped at any point, it is run again to finish.
      --new-master-key  with the key files of DATA_DIR: ${MASTER_KEY_FILE} becomes
                        ${PREVIOUS_MASTER_KEY_FILE} and a new random ${MASTER_KEY_FILE} is written first
      --pause <ms>      waits between tenants
On the embedded database, stop the server first. The procedure: docs/operations.md.`;

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

export async function main(argv: readonly string[], config = configFromEnv()): Promise<number> {
  if (wantsHelp(argv)) {
    console.log(USAGE);
    return 0;
  }
  const args = [...argv];
  const pauseIndex = args.indexOf('--pause');
  const pauseMs = pauseIndex >= 0 ? Number(args.splice(pauseIndex, 2)[1]) : 0;
  const newKey = args.includes('--new-master-key');
  const [command, ...rest] = args.filter((arg) => arg !== '--new-master-key');
  if (
    rest.length > 0 ||
    !Number.isInteger(pauseMs) ||
    pauseMs < 0 ||
    (command !== 'status' && command !== 'rotate') ||
    (newKey && command !== 'rotate')
  ) {
    console.error(USAGE);
    return 2;
  }
  try {
    if (command === 'status')
      return await onDatabase(config, async (db) => {
        const current = masterKeys(config).current.id;
        for (const [id, count] of await dataKeysByMasterKey(db, await tenantIds(db)))
          console.log(`${id}\t${count} tenant(s)${id === current ? '\t(current)' : ''}`);
        return 0;
      });
    if (newKey) {
      const refused = await newMasterKeyFile(config);
      if (refused) {
        console.error(refused);
        return 1;
      }
    }
    return await onDatabase(config, async (db) => {
      const keys = masterKeys(config);
      const count = await rewrapDataKeys(db, keys, await tenantIds(db), async (progress) => {
        console.log(
          `${progress.tenantId}\t${progress.rewrapped ? 're-wrapped' : 'already under the current key'}`,
        );
        if (pauseMs > 0) await sleep(pauseMs);
      });
      console.log(
        `${count} data key(s) re-wrapped under ${keys.current.id}. Every data key is under the current master key: the previous one can be retired (docs/operations.md).`,
      );
      return 0;
    });
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
