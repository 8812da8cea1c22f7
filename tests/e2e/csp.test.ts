/**
 * The strict Content-Security-Policy in Chromium (SECURITY.md ASVS 3.4.3, D50): every screen of
 * SPEC 2 is walked, dialogs open, and any `securitypolicyviolation` event or CSP console error fails.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_DATA_ELEMENT_ID } from '../../contract/firstLoad';
import { earlyRequestsScript } from '../../src/boot/earlyRequests';
import { validApplication } from '../definitions/fixtures';
import { signUpApplicant, startE2E, type E2E } from './harness';

interface Watched {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Every violation so far: events in the page and CSP errors on the console. */
  violations(): Promise<string[]>;
}

async function watchedPage(e2e: E2E): Promise<Watched> {
  const { context, page } = await e2e.newPage();
  // Runs before the page's own scripts in every document (not subject to the page's CSP).
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(
        `${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (
      /Content Security Policy|Refused to (load|execute|apply|evaluate|connect|frame)/i.test(text)
    )
      consoleErrors.push(text);
  });
  return {
    context,
    page,
    async violations() {
      const events = await page
        .evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])
        .catch(() => []);
      return [...events, ...consoleErrors];
    },
  };
}

async function visit(w: Watched, path: string, check: () => Promise<unknown>) {
  await w.page.goto(path);
  await w.page.waitForLoadState('networkidle');
  await expect.poll(check, { message: `content of ${path} (at ${w.page.url()})` }).toBeTruthy();
  expect(await w.violations(), `CSP violations on ${path}`).toEqual([]);
}

const heading = (page: Page, name: string | RegExp) => () =>
  page.getByRole('heading', { name }).count();

describe('the Content-Security-Policy in Chromium', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  it('serves index.html with no inline code but the nonce-bearing boot parts, every other script and style from the own origin, under a strict policy', async () => {
    const response = await fetch(`${e2e.server.url}/about`);
    const policy = response.headers.get('content-security-policy') ?? '';
    const html = await response.text();
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce, 'a nonce in the policy').toBeTruthy();
    expect(html).not.toContain('__CSP_NONCE__');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    // D84: one inline script, the early requests of a logged-in page, exactly as built, with
    // this response's nonce; every other script is a file of the app, or the tenant's data, JSON
    // that is never executed (D143).
    const data = scripts.filter(([, attributes]) =>
      /type="application\/json"/.test(attributes ?? ''),
    );
    expect(data.map(([, attributes]) => /id="([^"]+)"/.exec(attributes ?? '')?.[1])).toEqual([
      TENANT_DATA_ELEMENT_ID,
    ]);
    const inline = scripts.filter((script) => !data.includes(script) && script[2]?.trim() !== '');
    expect(inline.map(([, , body]) => body?.trim())).toEqual([earlyRequestsScript()]);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toContain(`nonce="${nonce}"`);
      if (body?.trim() === '') expect(attributes).toMatch(/\ssrc="\/assets\//);
    }
    // Two inline styles, the loading state's and the tenant's colours, each with the nonce.
    const styles = [...html.matchAll(/<style\b([^>]*)>/g)];
    expect(styles.map(([, attributes]) => attributes?.trim())).toEqual([
      `nonce="${nonce}"`,
      `nonce="${nonce}"`,
    ]);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    // A fresh nonce per response.
    const again = (await fetch(`${e2e.server.url}/about`)).headers.get('content-security-policy');
    expect(again).not.toBe(policy);
  });

  it('reports no violation on the form pages, the account screens and their dialogs (anonymous)', async () => {
    const w = await watchedPage(e2e);
    const { page } = w;
    try {
      await visit(w, '/about', () => page.locator('#first_name').count());
      // Dialogs: Radix's scroll lock inserts a <style> element, allowed only by the nonce.
      await page.getByRole('button', { name: 'Help' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: 'Help' }).count()).toBe(1);
      expect(
        await page.evaluate(() => document.querySelectorAll('style').length),
        'the scroll lock style element is present',
      ).toBeGreaterThan(0);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Privacy Policy and Cookie Notice' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(1);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Account' }).click();
      await page.keyboard.press('Escape');
      expect(await w.violations(), 'CSP violations with dialogs open').toEqual([]);

      await visit(w, '/education', () => page.getByRole('button', { name: /Save/ }).count());
      await visit(w, '/final-steps', () => page.getByRole('button', { name: 'Submit' }).count());
      await visit(w, '/signup', () => page.getByLabel('Email Address').count());
      await visit(w, '/confirm', () => page.getByLabel('Confirmation Code').count());
      await visit(w, '/login', () => page.getByLabel('Email Address').count());
      await visit(w, '/forgot', () => page.getByLabel('Email Address').count());
      await visit(w, '/reset?username=a%40example.com&id=abc', () =>
        page.locator('input[type=password]').count(),
      );
    } finally {
      await w.context.close();
    }
  }, 90_000);

  it('7.9 the reset link: no violation, the id leaves the address bar at once, and the reset still works', async () => {
    const w = await watchedPage(e2e);
    const { page } = w;
    const email = 'reset-link@example.com';
    try {
      const api = page.request;
      await signUpApplicant(e2e, api, email, { logIn: false });
      await api.post('/public/forgot-password', { data: { username: email } });
      const mail = await e2e.server.mail(email, 'reset your password');
      const link = new URL(/(http\S+\/reset\?\S+)/.exec(mail.text)?.[1] as string);
      const id = link.searchParams.get('id') as string;
      const response = await page.goto(`/reset${link.search}`);
      expect(response?.headers()['referrer-policy']).toBe('no-referrer');
      expect(response?.headers()['cache-control']).toBe('no-store');
      await page.waitForURL((url) => url.pathname === '/reset' && url.search === '');
      expect(page.url()).not.toContain(id);
      const fields = page.locator('input[type=password]');
      await fields.nth(0).fill('Brand-New-Pass-7');
      await fields.nth(1).fill('Brand-New-Pass-7');
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.waitForURL('**/login');
      expect(
        (
          await api.post('/public/login', {
            data: { username: email, password: 'Brand-New-Pass-7' },
          })
        ).status(),
      ).toBe(200);
      expect(await w.violations()).toEqual([]);
    } finally {
      await w.context.close();
    }
  }, 90_000);

  it('reports no violation logged in, on /completion after submitting, and on the error screen', async () => {
    const w = await watchedPage(e2e);
    const { page } = w;
    const email = 'csp@example.com';
    try {
      const api = page.request;
      await signUpApplicant(e2e, api, email);

      await visit(w, '/about', heading(page, 'Welcome!'));
      await page.getByRole('button', { name: 'Account' }).click();
      await expect
        .poll(() => page.getByRole('button', { name: 'Log Out', exact: true }).count())
        .toBe(1);
      await page.keyboard.press('Escape');
      // Logged in, later pages open in order (SPEC 2.2 guards): go through Save & Continue.
      await page.getByRole('button', { name: 'Save & Continue' }).click();
      await page.waitForURL('**/education');
      await page.getByRole('button', { name: 'Save & Continue' }).click();
      await page.waitForURL('**/final-steps');
      await page.waitForLoadState('networkidle');
      expect(await w.violations(), 'CSP violations on the later pages').toEqual([]);

      expect((await api.put('/api/answer', { data: validApplication })).status()).toBe(200);
      expect((await api.post('/api/submit')).status()).toBe(200);
      await visit(w, '/completion', heading(page, /Thanks/));

      // SPEC 2.8: a data read that fails shows the root error screen.
      await page.route('**/api/profile', (route) =>
        route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>down</h1>' }),
      );
      await visit(w, '/about', heading(page, 'Something went wrong.'));
    } finally {
      await w.context.close();
    }
  }, 90_000);
});
