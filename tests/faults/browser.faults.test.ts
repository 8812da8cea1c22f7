/**
 * Faults between the browser and the server (SECURITY.md 4.3 and section 7 case 31): the
 * applicant's Chromium talks to the server through a TCP fault proxy. Connections reset during a
 * save: the page shows "Not saved — retrying", and once the network is back every edit is stored.
 * Latency: saves still land.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autosaveText } from '../../contract/words';
import { codeIn } from '../server/harness';
import { startE2E, type E2E } from '../e2e/harness';
import { startFaultProxy, type FaultProxy } from './faultProxy';

const PASSWORD = 'Correct-Horse-42';

describe('browser ↔ server through a fault proxy', () => {
  let e2e: E2E;
  let proxy: FaultProxy;
  beforeAll(async () => {
    e2e = await startE2E();
    const server = new URL(e2e.server.url);
    proxy = await startFaultProxy('127.0.0.1', Number(server.port));
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await e2e?.close();
  });

  it('31 connection resets during autosave: "Not saved — retrying", then every edit is stored', async () => {
    const context = await e2e.browser.newContext({
      baseURL: `http://localhost:${proxy.port}`,
      viewport: { width: 1280, height: 900 },
    });
    try {
      const page = await context.newPage();
      const email = 'fault-browser@example.com';
      const api = page.request;
      expect(
        (
          await api.post('/public/signup', { data: { username: email, password: PASSWORD } })
        ).status(),
      ).toBe(200);
      const code = codeIn(await e2e.server.mail(email, 'confirmation code'));
      expect(
        (await api.post('/public/confirm', { data: { username: email, code } })).status(),
      ).toBe(200);
      expect(
        (
          await api.post('/public/login', { data: { username: email, password: PASSWORD } })
        ).status(),
      ).toBe(200);
      const status = () =>
        page
          .getByRole('status')
          .filter({ hasText: /Sav|retrying/ })
          .textContent();
      const stored = async () =>
        ((await (await api.get('/api/profile')).json()) as { answer: Record<string, unknown> })
          .answer;

      await page.goto('/about');
      await page.locator('#first_name').fill('Ada');
      await expect.poll(status).toBe(autosaveText.saved);

      proxy.set({ kind: 'reset' });
      await page.locator('#last_name').fill('Lovelace');
      await page.locator('#middle_name').fill('King');
      await expect.poll(status, { timeout: 10_000 }).toBe(autosaveText.retrying);

      proxy.set({ kind: 'latency', ms: 200 });
      await expect.poll(status, { timeout: 20_000 }).toBe(autosaveText.saved);
      proxy.set({ kind: 'none' });
      expect(await stored()).toMatchObject({
        first_name: 'Ada',
        last_name: 'Lovelace',
        middle_name: 'King',
      });
    } finally {
      await context.close();
    }
  }, 90_000);
});
