/**
 * `npm run service-token -- <e-mail>` when no server runs: the command opens the embedded database
 * itself (D41) and prints a link that the server accepts for that applicant.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serviceMessages } from '../../contract';
import { main, requestServiceLink } from '../../server/cli/serviceToken';
import { configFromEnv, type ServerConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import { users } from '../../server/db/schema';
import { verifyServiceToken } from '../../server/serviceView/serviceTokens';
import { DEFAULT_TENANT_SEED, ensureTenant } from '../../server/tenants';

describe('the service-token command without a running server', () => {
  let dataDir: string;
  let config: ServerConfig;
  let userId: string;
  const env = () => ({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '1',
    PUBLIC_ORIGIN: 'https://apply.example.edu',
  });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-cli-'));
    config = configFromEnv(env());
    const database = await openDatabase({ dataDir });
    await ensureTenant(database.db, DEFAULT_TENANT_SEED);
    const [row] = await database.db
      .insert(users)
      .values({
        tenantId: DEFAULT_TENANT_SEED.id,
        email: 'cli@example.com',
        passwordHash: 'not-a-hash',
        createdAt: new Date(),
      })
      .returning({ id: users.id });
    userId = row?.id as string;
    await database.close();
  }, 60_000);
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it('mints from the database, for that applicant, with the key kept in DATA_DIR (mode 600)', async () => {
    const minted = await requestServiceLink({ config, email: ' CLI@example.com ' });
    expect(minted.via).toBe('database');
    expect(minted.url).toMatch(/^https:\/\/apply\.example\.edu\/\?service_token=/);
    const token = new URL(minted.url).searchParams.get('service_token') as string;
    const grant = verifyServiceToken(config, token, DEFAULT_TENANT_SEED.id);
    expect(grant.userId).toBe(userId);
    expect(grant.staffId).toBe('cli');
    expect(() => verifyServiceToken(config, token, 'southfield')).toThrow(
      serviceMessages.tokenInvalid,
    );
    expect((await stat(path.join(dataDir, 'service-token.key'))).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('prints the link on stdout, and says so when the address is unknown', async () => {
    const previous = { ...process.env };
    Object.assign(process.env, env());
    const out = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await main(['cli@example.com'])).toBe(0);
      expect(String(out.mock.calls[0]?.[0])).toMatch(/\?service_token=/);
      expect(await main(['nobody@example.com'])).toBe(1);
      expect(err.mock.calls.flat().join('\n')).toContain(serviceMessages.noSuchApplicant);
      expect(await main([])).toBe(2);
    } finally {
      out.mockRestore();
      err.mockRestore();
      process.env = previous;
    }
  }, 60_000);
});
