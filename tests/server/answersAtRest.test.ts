/**
 * Sensitive answers at rest (D150): stored sealed under the tenant's data key, opened for the
 * applicant, the staff view and the CSV; the save's unchanged-value rule (REQ-R-2) still holds on
 * sealed values; answers saved before encryption are sealed in place, unchanged for their readers.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { isSealed, vaultOf } from '../../server/crypto/answerVault';
import { sealAllTenants } from '../../server/atRest/sealAtRest';
import { runInTenant } from '../../server/db/tenantScope';
import { versionTag } from '../../server/application/applications';
import { databaseKinds, registeredClient, startServer, type TestServer } from './harness';
import { adminWithApplicant } from './staffHelpers';
import { KNOWN_SENSITIVE, KNOWN_VALUES } from '../fixtures/sensitiveAnswers';

const BURST = 20;

describe.each(databaseKinds)('sensitive answers at rest on %s', (database) => {
  let server: TestServer;
  let tenantId: string;
  beforeAll(async () => {
    server = await startServer({ database });
    tenantId = server.built.context.config.defaultTenant;
  });
  afterAll(async () => server?.close());

  /** The stored answers of an applicant, as the database holds them. */
  const stored = async (email: string) => {
    const result = (await runInTenant(tenantId, () =>
      server.built.database.db.execute(sql`select a.answers, a.answers::text as text, a.version
        from applications a join users u on u.id = a.user_id and u.tenant_id = a.tenant_id
        where u.email = ${email}`),
    )) as unknown as {
      rows: { answers: Record<string, unknown>; text: string; version: number }[];
    };
    const row = result.rows[0];
    if (!row) throw new Error(`no application of ${email}`);
    return row;
  };

  it('stores every sensitive value sealed, the others as they are, and hands them back to the applicant', async () => {
    const client = await registeredClient(server, 'sealed@example.com');
    const saved = await client.put('/api/answer', { ...KNOWN_SENSITIVE, first_name: 'Ada' });
    expect(saved.status).toBe(200);
    const row = await stored('sealed@example.com');
    for (const key of Object.keys(KNOWN_SENSITIVE))
      expect(isSealed(row.answers[key]), key).toBe(true);
    for (const value of KNOWN_VALUES) expect(row.text).not.toContain(value);
    expect(row.answers.first_name).toBe('Ada');
    const profile = await client.get('/api/profile');
    // The choice's label is the definition's (D74), sealed like its value.
    expect(profile.body.answer).toEqual({
      ...KNOWN_SENSITIVE,
      conviction_desc: 'Yes',
      first_name: 'Ada',
    });
    expect(isSealed(row.answers.conviction_desc)).toBe(true);
    // A save that leaves them out changes nothing of them.
    expect((await client.put('/api/answer', { middle_name: 'B' })).status).toBe(200);
    expect((await client.get('/api/profile')).body.answer).toMatchObject(KNOWN_SENSITIVE);
  });

  it('takes a save of an unchanged sensitive value from an old version, and answers a changed one 409 with both values in clear', async () => {
    const client = await registeredClient(server, 'tabs@example.com');
    const base = (await client.put('/api/answer', { first_name: 'Tab' })).body.version as number;
    const first = await client.request(
      'PUT',
      '/api/answer',
      { ssn: '111-22-3333' },
      { 'if-match': versionTag(base) },
    );
    expect(first.status).toBe(200);
    // Another tab, from the same base: the same value is no conflict, and it sees the first tab's.
    const same = await client.request(
      'PUT',
      '/api/answer',
      { ssn: '111-22-3333' },
      { 'if-match': versionTag(base) },
    );
    expect(same.status).toBe(200);
    const other = await client.request(
      'PUT',
      '/api/answer',
      { middle_name: 'C' },
      { 'if-match': versionTag(base) },
    );
    expect(other.body.others).toEqual({ ssn: '111-22-3333' });
    const changed = await client.request(
      'PUT',
      '/api/answer',
      { ssn: '999-88-7777' },
      { 'if-match': versionTag(base) },
    );
    expect(changed.status).toBe(409);
    expect(changed.body.message).toBe(serverMessages.answerConflict);
    expect(changed.body.conflicts).toEqual({ ssn: { mine: '999-88-7777', theirs: '111-22-3333' } });
    expect((await client.get('/api/profile')).body.answer.ssn).toBe('111-22-3333');
  });

  it(`a burst of ${BURST} saves from one version: the same value all pass, different values one passes and the others conflict`, async () => {
    const client = await registeredClient(server, 'burst@example.com');
    const base = (await client.put('/api/answer', { first_name: 'Burst' })).body.version as number;
    const save = (ssn: string) =>
      client.request('PUT', '/api/answer', { ssn }, { 'if-match': versionTag(base) });
    const same = await Promise.all(Array.from({ length: BURST }, () => save('222-33-4444')));
    expect(same.map((response) => response.status)).toEqual(Array(BURST).fill(200));

    const next = (await client.put('/api/answer', { first_name: 'Burst 2' })).body
      .version as number;
    const different = await Promise.all(
      Array.from({ length: BURST }, (_, index) =>
        client.request(
          'PUT',
          '/api/answer',
          { ssn: `300-00-${String(1000 + index)}` },
          { 'if-match': versionTag(next) },
        ),
      ),
    );
    const won = different.filter((response) => response.status === 200);
    expect(won).toHaveLength(1);
    expect(different.filter((response) => response.status === 409)).toHaveLength(BURST - 1);
    const kept = (await client.get('/api/profile')).body.answer.ssn as string;
    expect(kept).toMatch(/^300-00-1\d{3}$/);
    expect(isSealed((await stored('burst@example.com')).answers.ssn)).toBe(true);
  });

  it('opens them for staff: the view and the CSV show them, the SSN masked as in every copy', async () => {
    const { admin, applicant } = await adminWithApplicant(
      server,
      'admin@example.com',
      'staffread@example.com',
    );
    expect((await applicant.put('/api/answer', KNOWN_SENSITIVE)).status).toBe(200);
    const list = await admin.client.get<{ rows: { id: string; email: string }[] }>(
      '/staff/api/applications?q=staffread',
    );
    const applicantId = list.body.rows.find((row) => row.email === 'staffread@example.com')?.id;
    const view = await admin.client.get(`/staff/api/applications/${applicantId}`);
    expect(view.status).toBe(200);
    expect(view.body.answer).toMatchObject({
      ...KNOWN_SENSITIVE,
      ssn: '***-**-6789',
    });
    const csv = await admin.client.get('/staff/api/export.csv?q=staffread');
    expect(csv.status).toBe(200);
    expect(csv.text).toContain(KNOWN_SENSITIVE.conviction_comment);
    expect(csv.text).toContain(KNOWN_SENSITIVE.alien_registration_number);
    expect(csv.text).not.toContain(KNOWN_SENSITIVE.ssn);
  });

  it('seals answers saved before encryption in place: same values, same version, readable as before', async () => {
    const client = await registeredClient(server, 'legacy@example.com');
    expect((await client.put('/api/answer', { first_name: 'Old' })).status).toBe(200);
    // Written as the server wrote them before D150: in clear.
    await runInTenant(tenantId, () =>
      server.built.database.db.execute(sql`update applications a set answers = a.answers ||
        ${JSON.stringify(KNOWN_SENSITIVE)}::jsonb from users u
        where u.id = a.user_id and u.tenant_id = a.tenant_id and u.email = 'legacy@example.com'`),
    );
    const before = await stored('legacy@example.com');
    expect(before.text).toContain(KNOWN_SENSITIVE.ssn);
    // Readers open clear values as they are, before the sealing too.
    expect((await client.get('/api/profile')).body.answer).toMatchObject(KNOWN_SENSITIVE);

    const sealed = await sealAllTenants(
      server.built.database.db,
      vaultOf(server.built.context),
      server.built.tenants.all(),
      server.built.documents.storage,
    );
    expect(sealed).toBe(1);
    const after = await stored('legacy@example.com');
    expect(after.version).toBe(before.version);
    for (const value of KNOWN_VALUES) expect(after.text).not.toContain(value);
    expect((await client.get('/api/profile')).body.answer).toEqual({
      ...KNOWN_SENSITIVE,
      first_name: 'Old',
    });
    // Once sealed, nothing is left to do.
    expect(
      await sealAllTenants(
        server.built.database.db,
        vaultOf(server.built.context),
        server.built.tenants.all(),
        server.built.documents.storage,
      ),
    ).toBe(0);
  });

  it('binds a sealed value to its applicant and key: moved to another, it does not open', async () => {
    const vault = vaultOf(server.built.context);
    const owner = { tenantId, userId: '00000000-0000-4000-8000-000000000001' };
    await runInTenant(tenantId, async () => {
      const sealed = await vault.seal(owner, new Set(['ssn']), { ssn: KNOWN_SENSITIVE.ssn });
      expect(await vault.open(owner, sealed)).toEqual({ ssn: KNOWN_SENSITIVE.ssn });
      await expect(
        vault.open({ ...owner, userId: '00000000-0000-4000-8000-000000000002' }, sealed),
      ).rejects.toThrow();
      await expect(vault.open(owner, { alien_registration_number: sealed.ssn })).rejects.toThrow();
    });
  });
});
