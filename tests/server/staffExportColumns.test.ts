/**
 * The CSV's columns an admin chooses for the office (D168): listed by their labels, saved per
 * tenant, used by the export (`codes` keeps every column), reset to all; a key the form does not
 * have is a 400 with our message; readers and the other college see nothing of it; saves racing
 * each other leave one whole choice; every save and reset is audited.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { staffMessages } from '../../contract/staff';
import { exportMessages } from '../../contract/staffExports';
import { databaseKinds, startServer, type TestServer } from './harness';
import {
  adminWithApplicant,
  enrolledStaff,
  SOUTH_HOST,
  SOUTHFIELD,
  statusCounts,
  type SignedInStaff,
} from './staffHelpers';

const BURST = 20;

interface Columns {
  columns: { key: string; label: string }[];
  chosen: string[] | null;
}

describe.each(databaseKinds)('the CSV column choice on %s', (database) => {
  let server: TestServer;
  let admin: SignedInStaff;

  const headerOf = async (query = '') => {
    const csv = await admin.client.get(`/staff/api/export.csv${query}`);
    expect(csv.status).toBe(200);
    return (parseCsv(csv.text, { bom: true }) as string[][])[0] as string[];
  };
  const columnsOf = async () =>
    (await admin.client.get('/staff/api/export-columns')).body as Columns;
  const auditDetails = async () =>
    (
      (await admin.client.get('/staff/api/audit?what=export.columns_chosen')).body.rows as {
        detail: string;
        actor: string;
      }[]
    ).map((row) => row.detail);

  beforeAll(async () => {
    server = await startServer({ database, tenants: [SOUTHFIELD] });
    ({ admin } = await adminWithApplicant(server, 'dean@northfield.edu', 'ada@example.com'));
  }, 120_000);
  afterAll(async () => server?.close());

  it('lists every answer column by its label, chosen by nobody yet; a save narrows the CSV, codes keep all, a reset restores all', async () => {
    const listed = await columnsOf();
    expect(listed.chosen).toBeNull();
    const byKey = new Map(listed.columns.map((column) => [column.key, column.label]));
    const first = byKey.get('first_name') as string;
    const last = byKey.get('last_name') as string;
    // Headed as in the CSV, as a person reads it (D199).
    expect(first).toBe('First Name');
    expect(last).toBe('Last Name');
    const everything = await headerOf();
    expect(everything).toEqual(expect.arrayContaining([first, last]));

    // Sent in any order, kept in the form's order.
    const saved = await admin.client.put('/staff/api/export-columns', {
      columns: ['last_name', 'first_name'],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe(exportMessages.columnsSaved);
    expect((await columnsOf()).chosen).toEqual(['first_name', 'last_name']);
    const narrowed = await headerOf();
    expect(narrowed.slice(-2)).toEqual([first, last]);
    // The first ten (who, reference, status, each time in UTC and the college's zone, documents)
    // always stay.
    expect(narrowed).toHaveLength(10 + 2);
    const row = (
      parseCsv((await admin.client.get('/staff/api/export.csv')).text, { bom: true }) as string[][]
    )[1];
    expect(row?.slice(-2)).toEqual(['Ada', 'Lovelace']);
    // For systems that import: every column whatever the office chose.
    expect((await headerOf('?codes=1')).length).toBeGreaterThan(everything.length);

    const reset = await admin.client.request('DELETE', '/staff/api/export-columns');
    expect(reset.body.message).toBe(exportMessages.columnsReset);
    expect((await columnsOf()).chosen).toBeNull();
    expect(await headerOf()).toEqual(everything);
    const details = await auditDetails();
    expect(details).toEqual(['all columns', `2 of ${listed.columns.length} columns`]);
  });

  it('a key the form does not have, or a list that is not one, is a 400 with our message and saves nothing', async () => {
    const { columns: all } = await columnsOf();
    for (const [columns, message] of [
      [['first_name', 'password_hash'], exportMessages.unknownColumn],
      [['first_name', '../etc'], exportMessages.badColumns],
      ['first_name', exportMessages.badColumns],
      [[1, 2], exportMessages.badColumns],
      // Longer than the form's columns: refused as the body is read.
      [[...all.map((column) => column.key), 'first_name'], serverMessages.badRequest],
    ] as const) {
      const response = await admin.client.put('/staff/api/export-columns', { columns });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
    }
    expect((await columnsOf()).chosen).toBeNull();
  });

  it('a reader cannot read, save or reset it; the other college neither sees nor changes this one', async () => {
    const reader = await enrolledStaff(server, 'reader@northfield.edu', 'reader');
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { columns: ['first_name'] }],
      ['DELETE', undefined],
    ] as const) {
      const response = await reader.client.request(method, '/staff/api/export-columns', body);
      expect(response.status, method).toBe(403);
      expect(response.body.message).toBe(staffMessages.forbidden);
    }
    expect(
      (await admin.client.put('/staff/api/export-columns', { columns: ['last_name'] })).status,
    ).toBe(200);
    const south = await enrolledStaff(server, 'dean@southfield.edu', 'admin', SOUTH_HOST);
    expect((await south.client.get('/staff/api/export-columns')).body.chosen).toBeNull();
    expect((await south.client.request('DELETE', '/staff/api/export-columns')).status).toBe(200);
    expect((await columnsOf()).chosen).toEqual(['last_name']);
  });

  it(`${BURST} saves racing each other: every one answered, one whole choice kept, each audited`, async () => {
    const before = (await auditDetails()).length;
    const { columns } = await columnsOf();
    const choices = Array.from({ length: BURST }, (_, i) =>
      columns.slice(0, i + 1).map((column) => column.key),
    );
    const responses = await Promise.all(
      choices.map((choice) => admin.client.put('/staff/api/export-columns', { columns: choice })),
    );
    expect(statusCounts(responses)).toEqual({ 200: BURST });
    const kept = (await columnsOf()).chosen;
    expect(choices).toContainEqual(kept);
    expect((await auditDetails()).length - before).toBe(BURST);
  });
});
