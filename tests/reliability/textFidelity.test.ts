/**
 * SECURITY.md REQ-R-7 (text fidelity): a 7,000-character essay with emoji, RTL text, combining
 * marks, `<`, `&`, tabs and double spaces comes back byte-identical after save and reload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hardText } from '../fixtures/hardText';
import { databaseKinds, registeredClient, startServer, type TestServer } from '../server/harness';

describe.each(databaseKinds)('REQ-R-7 text fidelity on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ database });
  });
  afterAll(async () => server?.close());

  it('keeps a 7,000-character essay byte-identical through save and reload', async () => {
    const essay = hardText(7000);
    expect(essay.length).toBe(7000);
    const client = await registeredClient(server, 'essayist@example.com');
    expect((await client.put('/api/answer', { conviction_comment: essay })).status).toBe(200);
    const profile = await client.get<{ answer: Record<string, unknown> }>('/api/profile');
    const stored = profile.body.answer.conviction_comment as string;
    expect(Buffer.from(stored, 'utf8').equals(Buffer.from(essay, 'utf8'))).toBe(true);
  });

  it('refuses one character more than the limit and keeps what was saved before', async () => {
    const client = await registeredClient(server, 'essayist2@example.com');
    const essay = hardText(7000);
    expect((await client.put('/api/answer', { conviction_comment: essay })).status).toBe(200);
    const longer = await client.put('/api/answer', { conviction_comment: `${essay}!` });
    expect(longer.status).toBe(400);
    const profile = await client.get<{ answer: Record<string, unknown> }>('/api/profile');
    expect(profile.body.answer.conviction_comment).toBe(essay);
  });
});
