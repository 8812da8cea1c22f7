/**
 * D74: coded answers are the definition's, not the client's. A select, radio, conditional
 * select or month/year value outside its options is refused, and `<key>_desc` is the definition's
 * label (staff see it), whatever label the body carried. The client writes choices from the same
 * runtime, so every choice it can make is accepted with the label it shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { definitionsById } from '../../server/tenants';
import { codedAnswers, type QuestionView } from '../../runtime';
import { compile } from '../../runtime/internal';
import { choiceAnswers } from '../../renderers/interactive/choices';
import { databaseKinds, registeredClient, startServer, type TestServer } from '../server/harness';

const STAFF_KEY = 'k'.repeat(40);
const definition = definitionsById.get('northfield-undergraduate')!;

describe('D74 client and server agree by construction', () => {
  it('every option of every choice question, written as the client writes it, is accepted with the same label', () => {
    const now = new Date('2026-11-02T15:00:00Z');
    let checked = 0;
    for (const instance of compile(definition).instances) {
      if (!instance.options || instance.monthOptions || instance.controlKey) continue;
      const options = instance.options({}, now);
      const view = { key: instance.key, descKey: instance.descKey, options } as QuestionView<
        'select' | 'radio'
      >;
      for (const option of options) {
        const written = choiceAnswers(view, option.value);
        const result = codedAnswers(definition, written, {}, now);
        expect(result.problems, `${instance.key}=${option.value}`).toEqual([]);
        expect(result.answers).toEqual(written);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
  });
});

describe.each(databaseKinds)('D74 coded answers on %s', (database) => {
  let server: TestServer;
  let n = 0;
  const applicant = () => registeredClient(server, `coded.${database}.${++n}@example.com`);

  beforeAll(async () => {
    server = await startServer({
      database,
      env: { STAFF_API_KEYS: `northfield=${STAFF_KEY}` },
      config: { publicRateLimit: 100_000 },
    });
  });
  afterAll(async () => server?.close());

  it('50 parallel saves of values outside their options (select, radio, month, year, conditional select) are all 400 naming the key; nothing is stored', async () => {
    const user = await applicant();
    await user.put('/api/answer', { country: 'USA' });
    const bogus: Record<string, string>[] = [
      { country: 'ATLANTIS' },
      { housing_plans: 'CASTLE' },
      { grad_month: '13' },
      { grad_year: '1800' },
      { state: 'Ontario' }, // a Canadian province while the stored country is the United States
      { applied_concentration: 'ANY' }, // no major chosen: no concentration is offered
      { country: 'usa' }, // codes are exact
    ];
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const body = bogus[i % bogus.length]!;
        return user.put('/api/answer', body).then((response) => ({ body, response }));
      }),
    );
    for (const { body, response } of responses) {
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message).toBe(serverMessages.badValues(Object.keys(body)));
    }
    const stored = (await user.get('/api/profile')).body.answer as Record<string, unknown>;
    expect(stored).toEqual({ country: 'USA', country_desc: 'United States' });
  });

  it("the label is the definition's: a forged _desc, with its value or alone, is replaced; staff see the definition's label", async () => {
    const user = await applicant();
    const saved = await user.put('/api/answer', {
      country: 'CAN',
      country_desc: 'Forged <b>label</b>',
      state: 'Ontario',
      state_desc: 'Forged province',
      housing_plans: 'OFF',
      housing_plans_desc: 'Forged housing',
    });
    expect(saved.status).toBe(200);
    // A label sent without its value takes the stored value's label.
    expect((await user.put('/api/answer', { country_desc: 'Forged again' })).status).toBe(200);
    const answers = (await user.get('/api/profile')).body.answer as Record<string, unknown>;
    expect(answers).toMatchObject({
      country: 'CAN',
      country_desc: 'Canada',
      state: 'Ontario',
      state_desc: 'Ontario',
      housing_plans: 'OFF',
      housing_plans_desc: 'Off campus',
    });
    const minted = await server
      .client()
      .request(
        'POST',
        '/service/tokens',
        { email: `coded.${database}.${n}@example.com` },
        { authorization: `Bearer ${STAFF_KEY}` },
      );
    expect(minted.status).toBe(200);
    const token = new URL(minted.body.url as string).searchParams.get('service_token') as string;
    const staff = await server.client().get(`/service/tmp-pdf?service_token=${token}`);
    expect(staff.status).toBe(200);
    expect(JSON.stringify(staff.body)).not.toContain('Forged');
    expect(staff.body.answer).toMatchObject({ country_desc: 'Canada', state_desc: 'Ontario' });
  });

  it('a conditional select is checked against the country saved with it or before it; clearing is always accepted', async () => {
    const user = await applicant();
    expect((await user.put('/api/answer', { country: 'USA', state: 'California' })).status).toBe(
      200,
    );
    expect((await user.put('/api/answer', { country: 'CAN', state: 'Quebec' })).status).toBe(200);
    expect((await user.put('/api/answer', { state: 'Texas' })).status).toBe(400);
    expect((await user.put('/api/answer', { state: '', state_desc: 'x' })).status).toBe(200);
    const answers = (await user.get('/api/profile')).body.answer as Record<string, unknown>;
    expect(answers).toMatchObject({ country: 'CAN', state: '', state_desc: '' });
  });
});
