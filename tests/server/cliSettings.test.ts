/**
 * The command-line tools work on the server and database the settings name, as `npm start` reads
 * them (D195): a data directory that does not exist, or holds no database, is refused with one
 * sentence naming it and what to set, and nothing is made; a data directory another process has
 * open is refused; a server that keeps another data directory is named; and each says on stderr
 * which server or data directory it worked on.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as keys } from '../../server/cli/keys';
import { addStaff } from '../../server/cli/staff';
import { requestServiceLink } from '../../server/cli/serviceToken';
import { main as tenant } from '../../server/cli/tenant';
import { configFromEnv, type ServerConfig } from '../../server/config';
import { LOCK_FILE } from '../../server/db/dataDirLock';
import { freePort } from '../fixtures/freePort';
import { entryArgs } from './entryArgs';
import { startServer, type TestServer } from './harness';
import { firstStartedDataDir } from './serverProcess';
import { printed } from '../fixtures/printed';

const run = promisify(execFile);

const tenantFile = (file: string) =>
  fileURLToPath(new URL(`../../tenants/${file}`, import.meta.url));
const ADD_HARBOR = [
  'add',
  'harbor',
  '--host',
  'harbor.localhost',
  '--institution',
  tenantFile('riverside/institution.json'),
  '--definition',
  tenantFile('riverside/definition.json'),
];

/** `npm run lookup:import` as its own process: its exit code, stdout and stderr. */
async function lookupImport(env: NodeJS.ProcessEnv, file: string) {
  return run(process.execPath, [...entryArgs('scripts/lookup-import.ts'), 'college_ceeb', file], {
    env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: '', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/**
 * Every way in of the four commands, each run with its own copy of the settings given (as each
 * runs in a process of its own, with what it read from the environment).
 */
function commands(settings: ServerConfig) {
  const config = () => ({ ...settings });
  return {
    tenant: () => printed(() => tenant(ADD_HARBOR, config())),
    staff: () =>
      printed(() => addStaff({ config: config(), email: 'registrar@example.edu', role: 'admin' })),
    'service-token': () =>
      printed(() => requestServiceLink({ config: config(), email: 'applicant@example.com' })),
    keys: () => printed(() => keys(['status'], config())),
  };
}

/** The one sentence a command refused with: its stderr, or the message of what it threw. */
function refusal(outcome: { result: unknown; err: string }): string {
  return outcome.result instanceof Error ? outcome.result.message : outcome.err;
}

describe('the commands pointed where no server ran', () => {
  let root: string;
  let port: number;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'admission-cli-settings-'));
    // Nothing listens there: as PORT=3000 where the server was started with another PORT.
    port = await freePort();
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  it('refuse a DATA_DIR that does not exist, naming it, and make nothing', async () => {
    // As ./data, where the server was started with another DATA_DIR.
    const dataDir = path.join(root, 'data');
    const config = configFromEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: String(port) });
    for (const [name, command] of Object.entries(commands(config))) {
      const outcome = await command();
      expect(refusal(outcome), name).toBe(
        `There is no data directory ${dataDir}: run the command with the DATA_DIR${name === 'keys' ? '' : ' (and PORT)'} the server was started with.`,
      );
      expect(outcome.out, name).not.toContain('added');
      expect(existsSync(dataDir), name).toBe(false);
    }
    const csv = path.join(root, 'colleges.csv');
    await writeFile(csv, 'ceeb,name,city,state,zip\n1234,Albany College,Albany,NY,12208\n');
    const imported = await lookupImport({ DATA_DIR: dataDir, PORT: String(port) }, csv);
    expect(imported.code).toBe(1);
    expect(imported.stderr).toBe(
      `There is no data directory ${dataDir}: run the command with the DATA_DIR the server was started with.\n`,
    );
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  it('refuse a data directory without a database, and make none', async () => {
    const dataDir = await mkdtemp(path.join(root, 'empty-'));
    const config = configFromEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: String(port) });
    for (const [name, command] of Object.entries(commands(config))) {
      const outcome = await command();
      expect(refusal(outcome), name).toBe(
        name === 'keys'
          ? `There is no database in the data directory ${dataDir}: run the command with the DATA_DIR the server was started with.`
          : `There is no database in the data directory ${dataDir}, and no server answered at http://127.0.0.1:${port}: run the command with the DATA_DIR and PORT the server was started with.`,
      );
      expect(existsSync(path.join(dataDir, 'pgdata')), name).toBe(false);
    }
    // The command-line key that would have been presented; nothing else.
    expect(await readdir(dataDir)).toEqual(['cli.key']);
  }, 60_000);
});

describe('the commands on a data directory a server made', () => {
  let dataDir: string;
  let port: number;
  let config: ServerConfig;
  let holder: ChildProcess | undefined;
  afterAll(async () => {
    holder?.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('work on it when no server answers, and say so', async () => {
    dataDir = await firstStartedDataDir('admission-cli-made-');
    port = await freePort();
    config = configFromEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: String(port) });
    const listed = await printed(() => tenant(['list'], config));
    expect(listed.result).toBe(0);
    expect(listed.out).toMatch(/^northfield\t.*\n^riverside\t/m);
    expect(listed.err).toBe(
      `Done on the data directory ${dataDir} (no server answered at http://127.0.0.1:${port}).`,
    );
    const status = await commands(config).keys();
    expect(status.result).toBe(0);
    expect(status.err).toBe(`Done on the data directory ${dataDir}.`);
  }, 240_000);

  it('refuse it while another process has it open, and name that process', async () => {
    // A process that lives (a server on another PORT, say) holds the lock of the data directory.
    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
    await writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: holder.pid }));
    const added = await commands(config).tenant();
    expect(added.result).toBe(1);
    expect(added.err).toBe(
      `The data directory ${dataDir} is in use by another process (pid ${holder.pid}), but no server answered at http://127.0.0.1:${port}: run the command with the PORT of the server that uses it.`,
    );
    const status = await commands(config).keys();
    expect(status.result).toBe(1);
    expect(status.err).toBe(
      `The data directory ${dataDir} is in use by another process (pid ${holder.pid}): stop it first, as the embedded database admits one process at a time.`,
    );
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder?.once('exit', resolve));
    // Its process gone, the lock it left is taken over.
    expect((await commands(config).keys()).result).toBe(0);
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  }, 60_000);
});

describe('the commands beside a running server', () => {
  let server: TestServer;
  let otherDataDir: string;
  beforeAll(async () => {
    server = await startServer();
    otherDataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-cli-other-'));
  });
  afterAll(async () => {
    await server?.close();
    await rm(otherDataDir, { recursive: true, force: true });
  });

  it('work through it, and name it and its data directory', async () => {
    const port = new URL(server.url).port;
    const config = configFromEnv({ NODE_ENV: 'test', DATA_DIR: server.dataDir, PORT: port });
    const listed = await printed(() => tenant(['list'], config));
    expect(listed.result).toBe(0);
    expect(listed.out).toMatch(/^northfield\t/m);
    expect(listed.err).toBe(
      `Done through the server at http://127.0.0.1:${port} (data directory ${server.dataDir}).`,
    );
  });

  it('name a server started with another DATA_DIR, and change nothing', async () => {
    const port = new URL(server.url).port;
    const config = configFromEnv({ NODE_ENV: 'test', DATA_DIR: otherDataDir, PORT: port });
    const added = await commands(config).tenant();
    expect(added.result).toBe(1);
    expect(added.err).toBe(
      `The server at http://127.0.0.1:${port} refused the command-line key of ${otherDataDir}: it was started with another DATA_DIR; run the command with that server's DATA_DIR (or the PORT of the server that uses ${otherDataDir}).`,
    );
    expect(server.built.tenants.get('harbor')).toBeUndefined();
  });
});
