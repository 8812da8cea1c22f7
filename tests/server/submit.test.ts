/**
 * Submitting the application (SPEC 4.1: the server re-validates the stored answers; one submission,
 * one confirmation e-mail) and the anonymous temporary answers of /public/tmp.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collegeTime, serverMessages, submissionText } from '../../contract';
import { applicationDefinition } from '../../definitions';
import { codedAnswers } from '../../runtime';
import { DEFAULT_TENANT_SEED } from '../../server/tenants';
import { validApplication } from '../definitions/fixtures';
import {
  databaseKinds,
  registeredClient,
  startServer,
  type Client,
  type TestServer,
} from './harness';

const CONFIRMATION_SUBJECT = 'we received your application';
const DAY_MS = 24 * 60 * 60 * 1000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(databaseKinds)('submitting the application on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ database });
  });
  afterAll(async () => server?.close());

  /** Confirmation mails to an address, after giving a fire-and-forget send time to land. */
  const confirmations = async (email: string) => {
    await pause(150);
    return (await server.outbox()).filter(
      (mail) => mail.to === email && mail.subject.includes(CONFIRMATION_SUBJECT),
    );
  };

  const withValidAnswers = async (email: string): Promise<Client> => {
    const client = await registeredClient(server, email);
    const saved = await client.put('/api/answer', validApplication);
    expect(saved.status).toBe(200);
    return client;
  };

  const distinctStatuses = async (client: Client) => {
    const profile = await client.get<{ web_status: { web_status: string }[] }>('/api/profile');
    return new Set(profile.body.web_status.map((entry) => entry.web_status));
  };

  it('refuses an incomplete application with 422 and the errors per key, and does not submit it', async () => {
    const client = await registeredClient(server, 'incomplete@example.com');
    await client.put('/api/answer', { middle_name: 'Q' });
    const response = await client.post('/api/submit');
    expect(response.status).toBe(422);
    expect(response.body.message).toBe(serverMessages.submitInvalid);
    expect(response.body.errors.first_name).toEqual(['First Name']);
    expect(response.body.errors.last_name).toEqual(['Last Name']);
    expect(response.body.errors).not.toHaveProperty('middle_name');

    const save = await client.put('/api/answer', { first_name: 'Still editable' });
    expect(save.status).toBe(200);
    expect(await distinctStatuses(client)).not.toContain('submitted');
    expect(await confirmations('incomplete@example.com')).toHaveLength(0);
  });

  it('submits a complete application once: status submitted, one confirmation mail, answers frozen', async () => {
    const email = 'complete@example.com';
    const client = await withValidAnswers(email);
    expect((await client.get('/api/profile')).body.submission).toBeNull();

    const response = await client.post('/api/submit');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Your application was successfully submitted.' });
    expect(await distinctStatuses(client)).toEqual(new Set(['started', 'validating', 'submitted']));
    const mail = await server.mail(email, CONFIRMATION_SUBJECT);
    expect(mail.subject).toContain(CONFIRMATION_SUBJECT);
    expect(await confirmations(email)).toHaveLength(1);
    // The receipt and the profile carry the reference and the time, as the completion page shows them.
    const { submission } = (
      await client.get<{ submission: { reference: string; submitted_at: string } }>('/api/profile')
    ).body;
    expect(submission.reference).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
    expect(submission.submitted_at).toBe(server.clock.now().toISOString());
    // In the institution's time zone (its configuration's time_zone), not the server's UTC.
    const { time_zone } = server.built.context.institutionOf(DEFAULT_TENANT_SEED.id);
    expect(time_zone).toBe('America/New_York');
    const at = collegeTime(submission.submitted_at, time_zone);
    expect(at).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T$/);
    expect(mail.text).not.toContain(collegeTime(submission.submitted_at, 'UTC'));
    expect(mail.text).toContain(`${submissionText.reference}: ${submission.reference}`);
    expect(mail.text).toContain(`${submissionText.submitted}: ${at}`);

    const again = await client.post('/api/submit');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: serverMessages.submitted });
    expect(await confirmations(email)).toHaveLength(1);
    const profile = await client.get('/api/profile');
    expect(profile.body.web_status).toHaveLength(3);

    const change = await client.put('/api/answer', { first_name: 'Changed' });
    expect(change.status).toBe(409);
    expect(change.body).toEqual({ message: serverMessages.alreadySubmitted, code: 'SUBMITTED' });
    // As saved: the server labels every coded answer from the definition (D74).
    expect((await client.get('/api/profile')).body.answer).toEqual(
      codedAnswers(applicationDefinition, validApplication, {}, server.clock.now()).answers,
    );
  });

  it('lets the client post web status submitted once the application is submitted, without a duplicate', async () => {
    const client = await withValidAnswers('status-after@example.com');
    expect((await client.post('/api/submit')).status).toBe(200);
    const posted = await client.post('/api/web-status', { web_status: 'submitted' });
    expect(posted.status).toBe(204);
    const profile = await client.get('/api/profile');
    expect(profile.body.web_status).toHaveLength(3);
  });

  it('changes no add-another count after submit', async () => {
    const client = await withValidAnswers('add-another-after@example.com');
    expect(
      (await client.put('/api/add-another', { button_id: 'activity', num_components: 2 })).status,
    ).toBe(204);
    expect((await client.post('/api/submit')).status).toBe(200);
    for (const body of [
      { button_id: 'activity', num_components: 3 },
      { buttonId: 'honors', numComponents: 2 },
    ]) {
      const response = await client.put('/api/add-another', body);
      expect(response).toMatchObject({
        status: 409,
        body: { message: serverMessages.alreadySubmitted, code: 'SUBMITTED' },
      });
    }
    expect((await client.get('/api/add-another')).body).toEqual({ activity: 2 });
  });

  it('changes no chosen tab after submit', async () => {
    const client = await withValidAnswers('tabs-after@example.com');
    expect(
      (await client.put('/api/tabs', { tab_id: 'transcript', chosen_tab: 'counselor' })).status,
    ).toBe(204);
    expect((await client.post('/api/submit')).status).toBe(200);
    const late = await client.put('/api/tabs', { tabId: 'transcript', chosenTab: 'upload' });
    expect(late).toMatchObject({ status: 409, body: { code: 'SUBMITTED' } });
    expect((await client.get('/api/tabs')).body).toEqual({ transcript: 'counselor' });
  });

  it('validates the stored answers, not anything sent with the submit call', async () => {
    const client = await registeredClient(server, 'body-ignored@example.com');
    await client.put('/api/answer', { first_name: 'Ada' });
    const response = await client.post('/api/submit', validApplication);
    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveProperty('last_name');
    expect(response.body.errors).not.toHaveProperty('first_name');
  });

  it('validates every add-another instance that the stored count shows or that holds answers', async () => {
    const badEmail = {
      parent_2_email_address: ['Parent or Legal Guardian 2: Please enter a valid email address.'],
    };

    // Shown by the stored count, and holding a bad answer: refused.
    const shown = await withValidAnswers('parent-two-shown@example.com');
    expect(
      (await shown.put('/api/add-another', { button_id: 'parent', num_components: 2 })).status,
    ).toBe(204);
    await shown.put('/api/answer', { parent_2_email_address: 'not-an-email' });
    const refused = await shown.post('/api/submit');
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual(badEmail);
    await shown.put('/api/answer', { parent_2_email_address: 'pat@example.com' });
    expect((await shown.post('/api/submit')).status).toBe(200);

    // Not shown by the stored count (1), but holding a bad answer: still refused.
    const hidden = await withValidAnswers('parent-two-hidden@example.com');
    await hidden.put('/api/answer', { parent_2_email_address: 'not-an-email' });
    const alsoRefused = await hidden.post('/api/submit');
    expect(alsoRefused.status).toBe(422);
    expect(alsoRefused.body.errors).toEqual(badEmail);

    // Shown by the stored count but left empty: blocks nothing.
    const empty = await withValidAnswers('parent-two-empty@example.com');
    await empty.put('/api/add-another', { buttonId: 'parent', numComponents: 2 });
    expect((await empty.post('/api/submit')).status).toBe(200);
  });

  it('handles two submits in parallel without an error and sends one confirmation mail', async () => {
    const email = 'parallel@example.com';
    const client = await withValidAnswers(email);
    const responses = await Promise.all([client.post('/api/submit'), client.post('/api/submit')]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    for (const response of responses)
      expect(response.body).toEqual({ message: serverMessages.submitted });
    await server.mail(email, CONFIRMATION_SUBJECT);
    expect(await confirmations(email)).toHaveLength(1);
    expect(await distinctStatuses(client)).toEqual(new Set(['started', 'validating', 'submitted']));
  });
});

describe.each(databaseKinds)('anonymous temporary answers on %s', (database) => {
  // Its own server: these tests move the clock.
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ database });
  });
  afterAll(async () => server?.close());

  it('stores answers under a long URL-safe token and reads them back', async () => {
    const client = server.client();
    const stored = await client.post('/public/tmp', { answers: { first_name: 'Ada' } });
    expect(stored.status).toBe(200);
    expect(Object.keys(stored.body)).toEqual(['token']);
    const token = stored.body.token as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32,}$/);

    const read = await server.client().get(`/public/tmp?token=${token}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ answers: { first_name: 'Ada' } });
  });

  it('answers 404 to an unknown token', async () => {
    const response = await server.client().get(`/public/tmp?token=${'A'.repeat(43)}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'This link has expired or is not valid.' });
  });

  it('refuses answers with keys outside the data model', async () => {
    const response = await server
      .client()
      .post('/public/tmp', { answers: { first_name: 'Ada', is_admin: true } });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(serverMessages.unknownKeys(['is_admin']));
  });

  it('keeps a token for 7 days and no longer', async () => {
    const client = server.client();
    const stored = await client.post('/public/tmp', { answers: { last_name: 'Lovelace' } });
    const token = stored.body.token as string;
    server.clock.advance(7 * DAY_MS - 1000);
    const stillValid = await client.get(`/public/tmp?token=${token}`);
    expect(stillValid.status).toBe(200);
    expect(stillValid.body).toEqual({ answers: { last_name: 'Lovelace' } });
    server.clock.advance(2000);
    const expired = await client.get(`/public/tmp?token=${token}`);
    expect(expired.status).toBe(404);
    expect(expired.body).toEqual({ message: serverMessages.tmpExpired });
  });
});
