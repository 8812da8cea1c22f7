/**
 * GET /lookup/find (SPEC 3.7, 4.9, 7.2) over the bundled sample lists and imported lists: each
 * category, ranking, typos, accents, bad parameters, import errors and tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupMessages } from '../../contract';
import { runInTenant } from '../../server/db/tenantScope';
import { importList } from '../../server/lookup/importList';
import { databaseKinds, startServer, type TestServer } from './harness';

const find = (params: Record<string, string>) => `/lookup/find?${new URLSearchParams(params)}`;
const names = (body: { text: string }[]) => body.map((s) => s.text);

describe.each(databaseKinds)('lookup on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      database,
      tenants: [
        {
          id: 'other',
          name: 'Other College',
          definitionId: 'northfield-undergraduate',
          hosts: ['other.test'],
        },
      ],
    });
  });
  afterAll(() => server.close());

  const search = async (category: string, text: string, host?: string) => {
    const response = await server
      .client(host)
      .request<{ text: string; id: string; sub_text: string }[]>(
        'GET',
        find({ text, category, max_results: '5' }),
      );
    expect(response.status).toBe(200);
    return response.body;
  };

  it('finds a sample high school by prefix, with label, id and sub-text', async () => {
    const body = await search('hs_ceeb', 'lincoln');
    expect(body[0]).toEqual({
      text: 'Lincoln High School (sample)',
      id: expect.stringMatching(/^99000[12]$/),
      sub_text: expect.stringMatching(/^(Springfield, Illinois|Portland, Oregon)$/),
    });
    expect(names(body)).toContain('Lincoln Park Academy (sample)');
    expect(body.length).toBeLessThanOrEqual(5);
  });

  it('ranks exact and prefix matches of the name first, and city or state breaks ties', async () => {
    // "Washington" is a prefix of one name and the state of another school.
    expect(names(await search('hs_ceeb', 'washington')).slice(0, 2)).toEqual([
      'Washington High School (sample)',
      'Washington Irving High School (sample)',
    ]);
    const portland = await search('hs_ceeb', 'lincoln high portland');
    expect(portland[0]).toMatchObject({ id: '990002', sub_text: 'Portland, Oregon' });
    const springfield = await search('hs_ceeb', 'lincoln high springfield');
    expect(springfield[0]).toMatchObject({ id: '990001', sub_text: 'Springfield, Illinois' });
    // A word inside the name matches too, after names that start with the text.
    expect(names(await search('hs_ceeb', 'irving'))[0]).toBe(
      'Washington Irving High School (sample)',
    );
  });

  it('forgives typos, case and accents', async () => {
    expect(names(await search('hs_ceeb', 'Linclon High'))[0]).toBe('Lincoln High School (sample)');
    expect(names(await search('hs_ceeb', 'ROOSEVLT'))[0]).toBe('Roosevelt High School (sample)');
    expect(names(await search('hs_ceeb', 'ecole sainte therese'))[0]).toBe(
      'École Sainte-Thérèse (sample)',
    );
    expect(names(await search('hs_ceeb', 'DÜRER'))[0]).toBe('Dürer Gymnasium (sample)');
    expect(names(await search('college_ceeb', 'universite de montreal'))[0]).toBe(
      'Université de Montréal (sample)',
    );
  });

  it('answers nothing for text that matches nothing, and honours max_results', async () => {
    expect(await search('hs_ceeb', 'zzqxv')).toEqual([]);
    const one = await server
      .client()
      .request<unknown[]>('GET', find({ text: 'high', category: 'hs_ceeb', max_results: '1' }));
    expect(one.body).toHaveLength(1);
  });

  it('answers a high school detail record with _desc labels for coded fields', async () => {
    const response = await server
      .client()
      .request('GET', find({ id: '990001', category: 'hs_ceeb' }));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ceeb: '990001',
      name: 'Lincoln High School (sample)',
      address_line_1: '1200 Prairie Avenue',
      city: 'Springfield',
      state: 'Illinois',
      state_desc: 'Illinois',
      zip: '62704',
      country: 'USA',
      country_desc: 'United States',
    });
  });

  it('answers college records per category', async () => {
    const [first] = await search('college_ceeb', 'lakeshore');
    expect(first).toMatchObject({ id: '9902', sub_text: 'Milwaukee, Wisconsin' });
    const detail = await server
      .client()
      .request('GET', find({ id: '9909', category: 'college_ceeb' }));
    expect(detail.body).toMatchObject({
      city: 'Montréal',
      state: 'Quebec',
      country: 'CAN',
      country_desc: 'Canada',
    });
    // High school ids are not college ids.
    const wrong = await server
      .client()
      .request('GET', find({ id: '990001', category: 'college_ceeb' }));
    expect(wrong.status).toBe(404);
    expect(wrong.body).toEqual({ message: lookupMessages.notFound });
  });

  it('answers addresses with city and state resolved from the US ZIP code', async () => {
    const body = await search('address', '1600 penn');
    expect(body[0]).toEqual({
      text: '1600 Pennsylvania Avenue (sample)',
      id: 's3',
      sub_text: 'Washington, District of Columbia 20500',
    });
    const detail = await server.client().request('GET', find({ id: 's1', category: 'address' }));
    expect(detail.body).toEqual({
      address_line_1: '123 Main Street (sample)',
      address_line_2: '',
      city: 'Springfield',
      state: 'Illinois',
      state_desc: 'Illinois',
      zip: '62704',
      country: 'USA',
      country_desc: 'United States',
    });
  });

  it('answers 400 with a message for an unknown category or a missing parameter', async () => {
    const client = server.client();
    const cases: [Record<string, string>, string][] = [
      [{ text: 'lincoln', category: 'schools' }, lookupMessages.badCategory],
      [{ text: 'lincoln' }, lookupMessages.badCategory],
      [{ category: 'hs_ceeb' }, lookupMessages.missingQuery],
      [{ text: 'lincoln', category: 'hs_ceeb', max_results: '0' }, lookupMessages.badMaxResults],
      [{ text: 'lincoln', category: 'hs_ceeb', max_results: 'x' }, lookupMessages.badMaxResults],
      [{ text: 'x'.repeat(101), category: 'hs_ceeb' }, lookupMessages.tooLong],
    ];
    for (const [params, message] of cases) {
      const response = await client.request('GET', find(params));
      expect(response.status, JSON.stringify(params)).toBe(400);
      expect(response.body.message).toBe(message);
    }
  });

  it('imports a CSV list all or nothing, reporting bad rows by line number', async () => {
    const tenant = server.built.tenants.get('other');
    if (!tenant) throw new Error('no tenant');
    const db = server.built.database.db;
    const bad = [
      'ceeb,name,city,state,zip,country',
      '123456,Good School,Albany,NY,12207,USA',
      '12,Short Code School,Albany,NY,12207,USA',
      '123457,,Albany,NY,12207,USA',
      '123458,Nowhere School,Albany,Atlantis,12207,USA',
      '123456,Duplicate School,Albany,NY,12207,USA',
    ].join('\n');
    // The import runs in the tenant's scope, as the CLI runs it (row-level security on PostgreSQL).
    const failed = await runInTenant(tenant.id, () =>
      importList(db, tenant, 'hs_ceeb', bad, new Date()),
    );
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.problems.map((p) => p.line)).toEqual([3, 4, 5, 6]);
    expect(failed.problems[0]?.message).toMatch(/CEEB code/);
    expect(failed.problems[1]?.message).toMatch(/name is missing/);
    expect(failed.problems[2]?.message).toMatch(/Atlantis/);
    expect(failed.problems[3]?.message).toMatch(/duplicate id 123456 \(first on line 2\)/);
    // Nothing was imported: the tenant still has its sample list.
    expect(names(await search('hs_ceeb', 'good school', 'other.test'))).not.toContain(
      'Good School',
    );
    expect(names(await search('hs_ceeb', 'lincoln', 'other.test'))[0]).toBe(
      'Lincoln High School (sample)',
    );

    const header = await runInTenant(tenant.id, () =>
      importList(db, tenant, 'address', 'street,zip\n1 A St,12207', new Date()),
    );
    expect(header).toMatchObject({ ok: false, problems: [{ line: 1 }, { line: 1 }] });
    const zip = await runInTenant(tenant.id, () =>
      importList(db, tenant, 'address', 'address_line_1,zip\n1 A St,00000', new Date()),
    );
    expect(zip).toMatchObject({
      ok: false,
      problems: [{ line: 2, message: expect.stringMatching(/ZIP/) }],
    });
  });

  it('keeps tenants apart: an import replaces one tenant list and the new list is searched at once', async () => {
    const tenant = server.built.tenants.get('other');
    if (!tenant) throw new Error('no tenant');
    // Warm the default tenant's index first, so the import must be picked up by a rebuild.
    expect(await search('hs_ceeb', 'albany', 'other.test')).toEqual([]);
    const csv =
      'ceeb,name,address_line_1,city,state,zip\n123456,Albany Academy,135 Academy Road,Albany,NY,12208\n';
    const result = await runInTenant(tenant.id, () =>
      importList(server.built.database.db, tenant, 'hs_ceeb', csv, new Date()),
    );
    expect(result).toMatchObject({ ok: true, count: 1 });
    expect(await search('hs_ceeb', 'albany', 'other.test')).toEqual([
      { text: 'Albany Academy', id: '123456', sub_text: 'Albany, New York' },
    ]);
    expect(await search('hs_ceeb', 'lincoln', 'other.test')).toEqual([]);
    // The default tenant neither sees the other list nor lost its own.
    expect(await search('hs_ceeb', 'albany')).toEqual([]);
    expect(names(await search('hs_ceeb', 'lincoln'))[0]).toBe('Lincoln High School (sample)');
    const detail = await server
      .client()
      .request('GET', find({ id: '123456', category: 'hs_ceeb' }));
    expect(detail.status).toBe(404);
  });

  it('rate-limits searches per client address', async () => {
    const limited = await startServer({ database, config: { lookupRateLimit: 3 } });
    try {
      const client = limited.client();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await client.request('GET', find({ text: 'a', category: 'hs_ceeb' }))).status,
        );
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
