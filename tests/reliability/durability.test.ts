/**
 * SECURITY.md REQ-R-3 and section 7 case 31 ("SIGKILL of the server after a 200 ack → the value is
 * present after restart"): a real server process acknowledges saves, is killed with SIGKILL with no
 * chance to flush anything, and a new process on the same database finds every acknowledged answer.
 * Runs on the embedded PGlite data directory, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../fixtures/freePort';
import { loggedInOverHttp } from '../server/harness';
import { dropDatabase } from '../server/dropDatabase';
import { entryArgs } from '../server/entryArgs';

interface Running {
  child: ChildProcess;
  base: string;
}

async function startProcess(dataDir: string, databaseUrl: string): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, entryArgs('server/main.ts'), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      SMTP_URL: '',
    },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  // A fresh data directory is migrated and seeded first: up to two minutes on a loaded machine.
  for (let i = 0; i < 1200; i++) {
    const health = await fetch(`${base}/healthz`).catch(() => null);
    if (health?.ok) return { child, base };
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited with ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not become healthy');
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const kinds: {
  name: string;
  databaseUrl: () => Promise<{ url: string; drop: () => Promise<void> }>;
}[] = [
  {
    name: 'the embedded PGlite data directory',
    databaseUrl: async () => ({ url: '', drop: async () => {} }),
  },
];
if (process.env.TEST_DATABASE_URL) {
  kinds.push({
    name: 'PostgreSQL',
    databaseUrl: async () => {
      const admin = process.env.TEST_DATABASE_URL as string;
      const name = `admission_durability_${randomBytes(4).toString('hex')}`;
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      const url = new URL(admin);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        drop: async () => {
          const dropper = new pg.Client({ connectionString: admin });
          await dropper.connect();
          await dropDatabase((statement) => dropper.query(statement), name);
          await dropper.end();
        },
      };
    },
  });
}

describe.each(kinds)('REQ-R-3 durability on $name', ({ databaseUrl }) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('31 SIGKILL after acknowledged saves: every acknowledged answer is there after restart', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-durability-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const database = await databaseUrl();
    cleanups.push(database.drop);
    const email = 'durable@example.com';

    let server = await startProcess(dataDir, database.url);
    cleanups.push(async () => {
      if (server.child.exitCode === null && server.child.signalCode === null)
        await killHard(server.child);
    });
    const client = await loggedInOverHttp(server.base, dataDir, email);

    // 40 acknowledged saves, each of a different key or a newer value of the same key; the last
    // one is killed right after its acknowledgement, before anything else can happen.
    const acknowledged: Record<string, string> = {};
    const essay = 'Lorem ipsum ✍️ שלום <b> & done.';
    for (let i = 0; i < 40; i++) {
      const answers =
        i % 2 === 0
          ? { first_name: `Ada${i}` }
          : { middle_name: `M${i}`, conviction_comment: `${essay} ${i}` };
      const saved = await client.put('/api/answer', answers);
      expect(saved.status).toBe(200);
      Object.assign(acknowledged, answers);
    }
    await killHard(server.child);

    server = await startProcess(dataDir, database.url);
    const again = await loggedInOverHttp(server.base, dataDir, email, { signUp: false });
    const profile = await again.get('/api/profile');
    expect(profile.status).toBe(200);
    const stored = (profile.body as { answer: Record<string, unknown> }).answer;
    for (const [key, value] of Object.entries(acknowledged)) expect(stored[key]).toBe(value);
    await killHard(server.child);
  }, 120_000);
});
