/**
 * The CSV as people read it (D199): every header a name a person reads (a repeat by its instance,
 * alike labels by their section), unique, keys only with `codes=1`; the reference beside the
 * applicant; one layout per form version whatever the filtered rows answered; a month/year in one
 * readable column.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationReference } from '../../server/applicationPdf';
import { databaseKinds, registeredClient, startServer, type TestServer } from './harness';
import { adminWithApplicant, type SignedInStaff } from './staffHelpers';

describe.each(databaseKinds)('the CSV for people on %s', (database) => {
  let server: TestServer;
  let admin: SignedInStaff;
  let adaId: string;

  async function exported(query: string): Promise<{ header: string[]; rows: string[][] }> {
    const response = await admin.client.get(`/staff/api/export.csv?${query}`);
    expect(response.status, query).toBe(200);
    const [header, ...rows] = parseCsv(response.text, { bom: true }) as string[][];
    return { header: header!, rows };
  }

  beforeAll(async () => {
    server = await startServer({ database });
    let ada;
    ({
      admin,
      applicant: ada,
      applicantId: adaId,
    } = await adminWithApplicant(server, 'dean@northfield.edu', 'ada@example.com'));
    const saved = await ada.put('/api/answer', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      parent_first_name: 'Anne',
      activity_2_name: 'Chess club',
      grad_month: '6',
      grad_year: '2027',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const grace = await registeredClient(server, 'grace@example.com');
    await grace.put('/api/answer', { first_name: 'Grace', last_name: 'Hopper' });
  }, 120_000);
  afterAll(async () => server?.close());

  it('names every column as a person reads it: by instance and section, unique, no keys', async () => {
    const { header } = await exported('q=ada');
    expect(new Set(header).size).toBe(header.length);
    expect(header.filter((name) => /\[\w+\]/.test(name))).toEqual([]);
    for (const name of [
      'First Name',
      'Parent or Legal Guardian 1 – First Name',
      'Parent or Legal Guardian 2 – First Name',
      'Activity 2 – Type of Activity',
      'Permanent Address – Country',
      'Mailing Address – Country',
      'Graduation Date',
    ])
      expect(header, name).toContain(name);
    // The keys stay in the file for systems, after the same names.
    const coded = await exported('q=ada&codes=1');
    expect(coded.header).toContain('Activity 2 – Type of Activity [activity_2_name_select]');
    expect(coded.header).toContain('Graduation Date (year) [grad_year]');
  });

  it('one layout whoever is in the file; the reference and a month/year read as written', async () => {
    const ada = await exported('q=ada');
    const grace = await exported('q=grace');
    // Grace added no parent and no activity: her file has the same columns in the same places.
    expect(grace.header).toEqual(ada.header);
    const cell = (name: string) => ada.rows[0]![ada.header.indexOf(name)];
    expect(ada.header.slice(0, 3)).toEqual(['Applicant ID', 'Reference', 'Name']);
    expect(cell('Reference')).toBe(applicationReference(adaId));
    expect(cell('Parent or Legal Guardian 1 – First Name')).toBe('Anne');
    expect(cell('Activity 2 – Activity Name')).toBe('Chess club');
    expect(cell('Graduation Date')).toBe('June 2027');
    expect(ada.header.some((name) => name.includes('(year)'))).toBe(false);
  });
});
