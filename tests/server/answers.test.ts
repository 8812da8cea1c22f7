/**
 * The applicant's own data through /api/*: profile, answers, status, last page, validations,
 * add-another and tabs (SPEC 3.2, 3.5, 4.1, 7.2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { versionTag } from '../../server/application/applications';
import { databaseKinds, PASSWORD, registeredClient, startServer, type TestServer } from './harness';

/** 25 distinct text keys of the data model, each short enough for the values written below. */
const CONCURRENT_KEYS = [
  'first_name',
  'last_name',
  'middle_name',
  'preferred_name',
  'city',
  'address_line_1',
  'address_line_2',
  'fb_name',
  'twitter_name',
  'instagram_handle',
  'snapchat_handle',
  'tiktok_handle',
  'mailing_city',
  'mailing_address_line_1',
  'mailing_address_line_2',
  'hs_city',
  'hs_address_line_1',
  'counselor_first_name',
  'counselor_last_name',
  'parent_first_name',
  'parent_last_name',
  'legacy_first_name',
  'honors_name',
  'activity_name',
  'college_city',
] as const;

describe.each(databaseKinds)('applicant data on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ database });
  });
  afterAll(async () => server?.close());

  const login = (email: string) => registeredClient(server, email);

  describe('GET /api/profile', () => {
    it('gives a new account an empty profile with its one login', async () => {
      const client = await login('profile-new@example.com');
      const profile = await client.get('/api/profile');
      expect(profile.status).toBe(200);
      expect(profile.body).toEqual({
        answer: {},
        document_answer: {},
        username: 'profile-new@example.com',
        last_page: null,
        successful_login: [{ at: expect.any(String) }],
        web_status: [],
        version: 0,
        submission: null,
      });
    });

    it('adds a successful_login entry for every further login', async () => {
      const first = await login('profile-twice@example.com');
      const second = server.client();
      const again = await second.post('/public/login', {
        username: 'profile-twice@example.com',
        password: PASSWORD,
      });
      expect(again.status).toBe(200);
      for (const client of [first, second]) {
        const profile = await client.get('/api/profile');
        expect(profile.body.successful_login).toHaveLength(2);
      }
    });
  });

  describe('PUT /api/answer', () => {
    it('merges answers per key, overwriting only the keys sent again', async () => {
      const client = await login('merge@example.com');
      const first = await client.put('/api/answer', { first_name: 'Ada', last_name: 'Byron' });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ message: 'Your answers have been saved.', version: 1 });
      const second = await client.put('/api/answer', { last_name: 'Lovelace', city: 'London' });
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ message: serverMessages.saved, version: 2 });
      const profile = await client.get('/api/profile');
      expect(profile.body.answer).toEqual({
        first_name: 'Ada',
        last_name: 'Lovelace',
        city: 'London',
      });
    });

    it('refuses keys outside the data model, naming them, and stores nothing of that request', async () => {
      const client = await login('unknown-keys@example.com');
      const response = await client.put('/api/answer', {
        status: 'submitted',
        first_name: 'Mallory',
        tenantId: 'other',
        role: 'admin',
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(
        'These answers are not part of the application: status, tenantId, role',
      );
      expect(response.body.message).toBe(
        serverMessages.unknownKeys(['status', 'tenantId', 'role']),
      );
      const profile = await client.get('/api/profile');
      expect(profile.body.answer).toEqual({});
      expect(profile.body.web_status).toEqual([]);
    });

    it('refuses a body with a __proto__ key sent as raw JSON text and pollutes nothing', async () => {
      const client = await login('proto@example.com');
      const response = await client.request(
        'PUT',
        '/api/answer',
        '{"__proto__": {"isAdmin": true}, "first_name": "x"}',
      );
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: serverMessages.badRequest });
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      const profile = await client.get('/api/profile');
      expect(profile.body.answer).toEqual({});
    });

    it('refuses a body with a constructor.prototype key', async () => {
      const client = await login('constructor@example.com');
      const response = await client.request(
        'PUT',
        '/api/answer',
        '{"constructor": {"prototype": {}}, "first_name": "x"}',
      );
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: serverMessages.badRequest });
      const profile = await client.get('/api/profile');
      expect(profile.body.answer).toEqual({});
    });

    it('refuses a number for a text answer and names the key', async () => {
      const client = await login('number@example.com');
      const response = await client.put('/api/answer', { first_name: 42, last_name: 'Byron' });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(serverMessages.badValues(['first_name']));
      expect((await client.get('/api/profile')).body.answer).toEqual({});
    });

    it('refuses a string for a check box and anything but ANSWERED for a document, naming the keys', async () => {
      const client = await login('types@example.com');
      const response = await client.put('/api/answer', {
        first_name: 'Ada',
        legal_agree: 'yes',
        transcript_file: 'x',
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(
        serverMessages.badValues(['legal_agree', 'transcript_file']),
      );
      expect((await client.get('/api/profile')).body.answer).toEqual({});
    });

    it('refuses a text answer longer than its maximum (46 characters for first_name)', async () => {
      const client = await login('too-long@example.com');
      const accepted = await client.put('/api/answer', { first_name: 'a'.repeat(45) });
      expect(accepted.status).toBe(200);
      const response = await client.put('/api/answer', { first_name: 'b'.repeat(46) });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(serverMessages.badValues(['first_name']));
      expect((await client.get('/api/profile')).body.answer).toEqual({
        first_name: 'a'.repeat(45),
      });
    });

    it('refuses a date that is not a real ISO date, naming the key, with or without If-Match (D128)', async () => {
      const client = await login('dates@example.com');
      const saved = await client.put('/api/answer', { birth_date: '2008-02-29' });
      expect(saved.status).toBe(200);
      const withVersion: Record<string, string> = { 'if-match': versionTag(saved.body.version) };
      for (const value of ['hello', '2008-02-30', '2008-13-01', '02/30/2008']) {
        for (const headers of [{}, withVersion]) {
          const response = await client.request(
            'PUT',
            '/api/answer',
            { birth_date: value, first_name: 'Ada' },
            headers,
          );
          expect(response.status, value).toBe(400);
          expect(response.body, value).toEqual({
            message: serverMessages.badValues(['birth_date']),
          });
        }
      }
      // Text no column can hold is refused before the data model is read.
      for (const value of ['2008-02-2\u0000', '2008-02-\ud8009']) {
        const response = await client.put('/api/answer', { birth_date: value });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ message: serverMessages.badRequest });
      }
      const profile = await client.get('/api/profile');
      expect(profile.body.answer).toEqual({ birth_date: '2008-02-29' });
      expect(profile.body.version).toBe(saved.body.version);
      // Cleared is still an answer a date takes (SPEC 5.7).
      expect((await client.put('/api/answer', { birth_date: '' })).status).toBe(200);
      expect((await client.get('/api/profile')).body.answer).toEqual({ birth_date: '' });
    });

    it('answers 413 to a body over 1 MiB', async () => {
      const client = await login('large@example.com');
      const body = JSON.stringify({ address_line_1: 'x'.repeat(1024 * 1024 + 1) });
      const response = await client.request('PUT', '/api/answer', body);
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ message: 'The request is too large.' });
      expect((await client.get('/api/profile')).body.answer).toEqual({});
    });

    it('loses no key when 25 saves of different keys run at once', async () => {
      const client = await login('concurrent@example.com');
      const responses = await Promise.all(
        CONCURRENT_KEYS.map((key, index) => client.put('/api/answer', { [key]: `v${index}` })),
      );
      expect(responses.map((r) => r.status)).toEqual(CONCURRENT_KEYS.map(() => 200));
      const profile = await client.get('/api/profile');
      expect(profile.body.answer).toEqual(
        Object.fromEntries(CONCURRENT_KEYS.map((key, index) => [key, `v${index}`])),
      );
    });
  });

  describe('POST /api/web-status', () => {
    it('records started then validating once each', async () => {
      const client = await login('status@example.com');
      expect((await client.post('/api/web-status', { web_status: 'started' })).status).toBe(204);
      expect((await client.post('/api/web-status', { web_status: 'validating' })).status).toBe(204);
      expect((await client.post('/api/web-status', { web_status: 'validating' })).status).toBe(204);
      expect((await client.post('/api/web-status', { web_status: 'started' })).status).toBe(204);
      const profile = await client.get('/api/profile');
      expect(profile.body.web_status).toEqual([
        { web_status: 'started' },
        { web_status: 'validating' },
      ]);
    });

    it('refuses submitted before the application is really submitted', async () => {
      const client = await login('status-early@example.com');
      const response = await client.post('/api/web-status', { web_status: 'submitted' });
      expect(response.status).toBe(409);
      expect(response.body.message).toBe(serverMessages.notSubmittedYet);
      expect((await client.get('/api/profile')).body.web_status).toEqual([]);
    });

    it('refuses a status outside the three values', async () => {
      const client = await login('status-bad@example.com');
      const response = await client.post('/api/web-status', { web_status: 'approved' });
      expect(response.status).toBe(400);
      expect((await client.get('/api/profile')).body.web_status).toEqual([]);
    });
  });

  describe('PUT /api/last-page', () => {
    it('records a page of the application as last_page', async () => {
      const client = await login('last-page@example.com');
      const response = await client.put('/api/last-page', { last_page: '/education' });
      expect(response.status).toBe(204);
      expect((await client.get('/api/profile')).body.last_page).toBe('/education');
    });

    it('refuses a page the application does not have', async () => {
      const client = await login('last-page-bad@example.com');
      const response = await client.put('/api/last-page', { last_page: '/nowhere' });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(serverMessages.badRequest);
      expect((await client.get('/api/profile')).body.last_page).toBeNull();
    });
  });

  describe('POST /api/validations', () => {
    it('accepts the map of field to errors', async () => {
      const client = await login('validations@example.com');
      const response = await client.post('/api/validations', { first_name: ['First Name'] });
      expect(response.status).toBe(204);
    });

    it('refuses a key outside the data model, naming it', async () => {
      const client = await login('validations-bad@example.com');
      const response = await client.post('/api/validations', { favourite_colour: ['Pick one'] });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(serverMessages.unknownKeys(['favourite_colour']));
    });
  });

  describe('/api/add-another', () => {
    it('accepts both payload spellings and returns the count per button id', async () => {
      const client = await login('add-another@example.com');
      const snake = await client.put('/api/add-another', {
        button_id: 'parent',
        num_components: 2,
      });
      expect(snake.status).toBe(204);
      const camel = await client.put('/api/add-another', {
        buttonId: 'activity',
        numComponents: 3,
      });
      expect(camel.status).toBe(204);
      const state = await client.get('/api/add-another');
      expect(state.status).toBe(200);
      expect(state.body).toMatchObject({ parent: 2, activity: 3 });
    });

    it('refuses an unknown button id', async () => {
      const client = await login('add-another-unknown@example.com');
      const response = await client.put('/api/add-another', {
        button_id: 'pets',
        num_components: 2,
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toContain('pets');
      expect((await client.get('/api/add-another')).body).not.toHaveProperty('pets');
    });

    it("refuses a count above the group's maximum (parent 2, activity 4)", async () => {
      const client = await login('add-another-max@example.com');
      const parent = await client.put('/api/add-another', {
        button_id: 'parent',
        num_components: 3,
      });
      expect(parent.status).toBe(400);
      const activity = await client.put('/api/add-another', {
        buttonId: 'activity',
        numComponents: 5,
      });
      expect(activity.status).toBe(400);
      const atMax = await client.put('/api/add-another', {
        buttonId: 'activity',
        numComponents: 4,
      });
      expect(atMax.status).toBe(204);
      const state = await client.get('/api/add-another');
      expect(state.body).toEqual({ activity: 4 });
    });

    it('refuses more than 10 components', async () => {
      const client = await login('add-another-eleven@example.com');
      const response = await client.put('/api/add-another', {
        button_id: 'honors',
        num_components: 11,
      });
      expect(response.status).toBe(400);
      expect((await client.get('/api/add-another')).body).toEqual({});
    });
  });

  describe('/api/tabs', () => {
    it('gives a new account the default tab of every tab group', async () => {
      const client = await login('tabs-default@example.com');
      const response = await client.get('/api/tabs');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ transcript: 'upload' });
    });

    it('accepts both payload spellings', async () => {
      const client = await login('tabs-spellings@example.com');
      const snake = await client.put('/api/tabs', {
        tab_id: 'transcript',
        chosen_tab: 'counselor',
      });
      expect(snake.status).toBe(204);
      expect((await client.get('/api/tabs')).body).toEqual({ transcript: 'counselor' });
      const camel = await client.put('/api/tabs', { tabId: 'transcript', chosenTab: 'upload' });
      expect(camel.status).toBe(204);
      expect((await client.get('/api/tabs')).body).toEqual({ transcript: 'upload' });
    });

    it('refuses an unknown tab group or tab name', async () => {
      const client = await login('tabs-unknown@example.com');
      const group = await client.put('/api/tabs', { tab_id: 'essay', chosen_tab: 'upload' });
      expect(group.status).toBe(400);
      expect(group.body.message).toContain('essay');
      const tab = await client.put('/api/tabs', { tab_id: 'transcript', chosen_tab: 'fax' });
      expect(tab.status).toBe(400);
      expect(tab.body.message).toContain('fax');
    });
  });
});
