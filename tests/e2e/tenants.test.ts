/**
 * Two colleges on one server, in Chromium (D145): Northfield (the embedded default) at localhost and
 * Riverside, added from its files through the platform's call, at riverside.localhost (Chromium
 * resolves *.localhost to this machine). Each host shows its own form, title, colours and words,
 * and nothing of the other, to applicants and in the staff console.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { themeVariables } from '../../definitions/colours';
import { cliKey } from '../../server/serviceView/serviceTokens';
import { startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

const tenantFile = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../tenants/${file}`, import.meta.url), 'utf8')) as {
    config: {
      colors: { primary: string; secondary: string; accent: string };
      application_title: string;
      partner_name: string;
    };
  };

/** `#rrggbb` as getComputedStyle writes a colour. */
const rgbOf = (hex: string) =>
  `rgb(${[1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(', ')})`;

describe('two colleges on one server, in Chromium', () => {
  let e2e: E2E;
  let riverside = '';

  beforeAll(async () => {
    e2e = await startE2E();
    const added = await e2e.server.client().request(
      'POST',
      '/platform/api/tenants',
      {
        id: 'riverside',
        hosts: ['riverside.localhost'],
        institution: tenantFile('riverside/institution.json'),
        definition: tenantFile('riverside/definition.json'),
      },
      { authorization: `Bearer ${cliKey(e2e.server.built.context.config)}` },
    );
    expect(added.status, added.text).toBe(200);
    riverside = e2e.origin.replace('//localhost', '//riverside.localhost');
  }, 300_000);
  afterAll(async () => e2e?.close());

  it('each host shows its own form, title, colours and words, and nothing of the other', async () => {
    const colleges = [
      {
        origin: e2e.origin,
        name: 'northfield',
        file: tenantFile('northfield/institution.json'),
        own: 'Middle Name',
        others: ['Riverside', 'Which program would you like to enroll in?'],
      },
      {
        origin: riverside,
        name: 'riverside',
        file: tenantFile('riverside/institution.json'),
        own: 'Which program would you like to enroll in?',
        others: ['Northfield', 'Middle Name'],
      },
    ];
    for (const college of colleges) {
      const { context, page } = await e2e.newPage();
      try {
        await page.goto(`${college.origin}/`);
        await page.getByLabel(college.own).first().waitFor();
        await expect.poll(() => page.title()).toContain(college.file.config.application_title);
        // The three colours of the file, and the shades derived from them (D198): Riverside's
        // headings (the primary's dark shade) were Northfield's navy.
        const derived = themeVariables(college.file.config.colors);
        const theme = await page.evaluate(
          (names) =>
            Object.fromEntries(
              names.map((name) => [
                name,
                getComputedStyle(document.documentElement).getPropertyValue(name).trim(),
              ]),
            ),
          Object.keys(derived),
        );
        expect(theme).toEqual(derived);
        expect(theme['--color-primary-main']).toBe(college.file.config.colors.primary);
        const heading = await page
          .getByRole('heading', { level: 1 })
          .first()
          .evaluate((element) => getComputedStyle(element).color);
        expect(heading).toBe(rgbOf(derived['--color-primary-dark']!));
        const text = await page.locator('body').innerText();
        expect(text).toContain(college.file.config.partner_name);
        for (const other of college.others) expect(text).not.toContain(other);
        await expectNoAxeViolations(page, `${college.name} first page`);
        await page.setViewportSize({ width: 360, height: 800 });
        await shot(page, `tenant-${college.name}-360`);

        // The staff console speaks in the college's name too.
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`${college.origin}/staff`);
        await page.getByRole('heading', { name: 'Sign in' }).waitFor();
        const header = await page.locator('header').innerText();
        expect(header).toContain(college.file.config.partner_name);
        for (const other of college.others) expect(header).not.toContain(other);
      } finally {
        await context.close();
      }
    }
  }, 300_000);
});
