/**
 * `npm run keys -- rotate` (D155): every tenant's data key is re-wrapped under the new master key
 * while the old one stays readable; killed in the middle (SIGKILL) and run again, it finishes, and
 * every sealed answer and object still opens, at last under the new master key alone.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnswerVault } from '../../server/crypto/answerVault';
import { TenantKeys } from '../../server/crypto/dataKeys';
import { masterKeys } from '../../server/crypto/masterKey';
import { dataKeysByMasterKey } from '../../server/crypto/rotation';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { runInTenant } from '../../server/db/tenantScope';
import { LocalStorage } from '../../server/storage/local';
import { DEFAULT_TENANT_SEED, ensureTenant } from '../../server/tenants';
import { databaseKinds, openTestDatabase } from './harness';
import { entryArgs } from './entryArgs';

const TENANTS = Array.from({ length: 6 }, (_, i) => `rotated-${i}`);
const SSN = '123-45-6789';
const DOCUMENT = Buffer.from('a scanned transcript');
const secret = () => randomBytes(24).toString('base64');

describe.each(databaseKinds)('npm run keys -- rotate on %s', (database) => {
  it('re-wraps every data key; killed midway and run again, every answer and object still opens', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'keys-'));
    const [oldKey, newKey] = [secret(), secret()];
    let url: string | undefined;
    let drop = async () => undefined as void;
    let handle: DatabaseHandle;
    if (database === 'pglite') handle = await openDatabase({ dataDir });
    else ({ handle, url, drop } = await openTestDatabase('postgres'));
    const reopen = async () =>
      database === 'pglite' ? (handle = await openDatabase({ dataDir })) : handle;
    const release = async () => (database === 'pglite' ? handle.close() : undefined);

    /** The vault and storage of a process holding these master keys. */
    const holding = (masterKey: string, masterKeyPrevious?: string) => {
      const keys = new TenantKeys(handle.db, masterKeys({ masterKey, masterKeyPrevious, dataDir }));
      const storage = new LocalStorage(dataDir, randomBytes(32), () => new Date(), keys);
      return { keys, vault: new AnswerVault(keys), storage };
    };
    const owners = TENANTS.map((tenantId) => ({ tenantId, userId: randomUUID() }));
    const sealed = new Map<string, Record<string, unknown>>();
    const before = holding(oldKey);
    for (const owner of owners) {
      await ensureTenant(handle.db, {
        ...DEFAULT_TENANT_SEED,
        id: owner.tenantId,
        hosts: [`${owner.tenantId}.test`],
      });
      await runInTenant(owner.tenantId, async () => {
        sealed.set(owner.tenantId, await before.vault.seal(owner, new Set(['ssn']), { ssn: SSN }));
        await before.storage.put(`${owner.tenantId}/${owner.userId}/q/f`, DOCUMENT, 'image/png');
      });
    }
    /** Every answer and object opens with these keys. */
    const allOpen = async (masterKey: string, masterKeyPrevious?: string) => {
      const now = holding(masterKey, masterKeyPrevious);
      for (const owner of owners)
        await runInTenant(owner.tenantId, async () => {
          const answers = sealed.get(owner.tenantId) as Record<string, unknown>;
          expect(await now.vault.open(owner, answers)).toEqual({ ssn: SSN });
          const key = `${owner.tenantId}/${owner.userId}/q/f`;
          expect((await now.storage.get(key))?.equals(DOCUMENT)).toBe(true);
        });
    };
    const idOf = (key: string) =>
      masterKeys({ masterKey: key, masterKeyPrevious: undefined, dataDir }).current.id;
    const counts = async () => dataKeysByMasterKey(handle.db, TENANTS);
    await release();

    const env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      MASTER_KEY: newKey,
      MASTER_KEY_PREVIOUS: oldKey,
      DATABASE_URL: url ?? '',
    };
    /** Runs the command; `killAfter`: SIGKILLed once that many data keys were re-wrapped. */
    const rotate = (args: string[], killAfter?: number) =>
      new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [...entryArgs('server/cli/keys.ts'), 'rotate', ...args],
          { env, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (killAfter && out.split('\tre-wrapped').length - 1 >= killAfter) child.kill('SIGKILL');
        });
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('exit', (code, signal) => resolve({ code, signal, out }));
      });

    const killed = await rotate(['--pause', '500'], 2);
    expect(killed.signal, killed.out).toBe('SIGKILL');
    await reopen();
    // Stopped in the middle: some keys under each master key, all of them readable.
    const midway = await counts();
    expect(midway.get(idOf(newKey)) ?? 0).toBeGreaterThanOrEqual(2);
    expect(midway.get(idOf(oldKey)) ?? 0).toBeGreaterThanOrEqual(1);
    await allOpen(newKey, oldKey);
    await release();

    const finished = await rotate([]);
    expect(finished.code, finished.out).toBe(0);
    await reopen();
    expect(await counts()).toEqual(new Map([[idOf(newKey), TENANTS.length]]));
    // The old key retired: the new one alone opens everything; the old one alone nothing.
    await allOpen(newKey);
    const retired = holding(oldKey);
    const [first] = owners;
    await runInTenant(first!.tenantId, async () =>
      expect(retired.keys.keyOf(first!.tenantId)).rejects.toThrow(/neither the configured/),
    );
    await release();

    const again = await rotate([]);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain('0 data key(s) re-wrapped');
    if (database === 'postgres') await handle.close();
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  }, 600_000);
});
