/**
 * An institution's three colours and what is derived from them (D198): the shades keep the colour's
 * hue and step its lightness, the focus ring stands out from the page, the theme's defaults are the
 * embedded default's derived colours, and a file whose colours put a pair the pages draw below
 * WCAG 2.1 AA's contrast is refused with the pair, both colours and the ratio named. Both colleges'
 * files pass.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COLOUR_PAIRS,
  FIXED_COLOURS,
  NON_TEXT_CONTRAST,
  contrastRatio,
  focusColourOf,
  institutionColourProblems,
  relativeLuminance,
  shadesOf,
  themeVariables,
} from '../../definitions/colours';
import {
  InstitutionFileError,
  parseInstitutionFile,
  withoutSchemaLink,
} from '../../definitions/institutionFile';
import { seedInstitutionFile } from '../../definitions/seed';
import { TENANTS_DIR } from '../../scripts/tenantFiles';

const colleges = readdirSync(TENANTS_DIR).filter((name) => name !== 'schemas');
const institutionOf = (college: string) =>
  withoutSchemaLink(
    JSON.parse(readFileSync(path.join(TENANTS_DIR, college, 'institution.json'), 'utf8')),
  ) as typeof seedInstitutionFile;

/** The :root variables of the stylesheet the app ships. */
function themeCss(): Record<string, string> {
  const css = readFileSync(path.resolve('src/styles/theme.css'), 'utf8');
  return Object.fromEntries(
    [...css.matchAll(/^\s*(--color-[a-z-]+):\s*(#[0-9a-f]{6});/gim)].map((m) => [m[1]!, m[2]!]),
  );
}

describe('WCAG 2 contrast', () => {
  it('measures as the standard does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // The classic pair just below 4.5:1, and the one just above.
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(relativeLuminance('#ff0000')).toBeCloseTo(0.2126, 4);
  });
});

describe('the shades of an institution colour (OKLCH)', () => {
  it.each(['#1d3f6e', '#0b6e4f', '#f07167', '#3a3a3a', '#f2b705', '#000000', '#ffffff'])(
    '%s: extra-light, light, main, dark from lightest to darkest',
    (main) => {
      const shades = shadesOf(main);
      expect(shades.main).toBe(main);
      const order = [shades.extraLight, shades.light, shades.main, shades.dark].map(
        relativeLuminance,
      );
      for (let i = 1; i < order.length; i++)
        expect(order[i]!).toBeLessThanOrEqual(order[i - 1]! + 1e-9);
      for (const shade of Object.values(shades)) expect(shade).toMatch(/^#[0-9a-f]{6}$/);
    },
  );

  it('gives Riverside green headings, not Northfield’s navy', () => {
    const riverside = themeVariables(institutionOf('riverside').config.colors);
    expect(riverside['--color-primary-dark']).toBe('#094b35');
    expect(riverside['--color-primary-dark']).not.toBe(themeCss()['--color-primary-dark']);
  });

  it('keeps a focus ring at 3:1 on white and on the page, darkening a light accent only as far as needed', () => {
    for (const accent of ['#f2b705', '#f07167', '#ffff00', '#ffffff']) {
      const focus = focusColourOf(accent);
      expect(contrastRatio(focus, FIXED_COLOURS.white)).toBeGreaterThanOrEqual(NON_TEXT_CONTRAST);
      expect(contrastRatio(focus, FIXED_COLOURS.page)).toBeGreaterThanOrEqual(NON_TEXT_CONTRAST);
      expect(contrastRatio(focus, FIXED_COLOURS.page)).toBeLessThan(NON_TEXT_CONTRAST + 0.3);
    }
    // A dark accent is its own ring.
    expect(focusColourOf('#1d3f6e')).toBe('#1d3f6e');
  });
});

describe('the stylesheet’s theme', () => {
  it('has the fixed colours the check measures against', () => {
    const css = themeCss();
    expect(css['--color-white']).toBe(FIXED_COLOURS.white);
    expect(css['--color-neutral-extra-light']).toBe(FIXED_COLOURS.page);
    expect(css['--color-neutral-dark']).toBe(FIXED_COLOURS.text);
  });

  it('defaults to what the embedded default’s three colours derive', () => {
    const css = themeCss();
    for (const [name, value] of Object.entries(themeVariables(seedInstitutionFile.config.colors)))
      expect({ name, value: css[name] }).toEqual({ name, value });
  });
});

describe('institutionColourProblems (WCAG 2.1 AA)', () => {
  it.each(colleges)('%s: every pair the pages draw passes', (college) => {
    expect(institutionColourProblems(institutionOf(college))).toEqual([]);
    expect(() => parseInstitutionFile(institutionOf(college))).not.toThrow();
  });

  it('checks text at 4.5:1 and the focus ring at 3:1', () => {
    expect(new Set(COLOUR_PAIRS.map((pair) => pair.minimum))).toEqual(new Set([4.5, 3]));
  });

  const withColours = (colors: Partial<typeof seedInstitutionFile.config.colors>) => ({
    ...seedInstitutionFile,
    config: {
      ...seedInstitutionFile.config,
      colors: { ...seedInstitutionFile.config.colors, ...colors },
    },
  });

  it('names the pair, both colours and the ratio of a primary too light for text', () => {
    const problems = institutionColourProblems(withColours({ primary: '#4a90e2' }));
    expect(problems.map((problem) => problem.path)).toEqual([
      'config.colors.primary',
      'config.colors.primary',
      'config.colors.primary',
    ]);
    expect(problems[0]?.message).toMatch(
      /^`config\.colors\.primary` \(#4a90e2\) on white \(#ffffff\): contrast 3\.2:1, below 4\.5:1 \(links/,
    );
    expect(problems[1]?.message).toContain('on the page background (#f5f6f8): contrast 3.0:1');
    expect(problems[2]?.message).toContain(
      "on `config.colors.primary`'s extra-light shade (#e4f0ff): contrast 2.8:1, below 4.5:1",
    );
  });

  it('names an accent too dark for the text drawn on it', () => {
    expect(institutionColourProblems(withColours({ accent: '#1d3f6e' }))).toEqual([
      {
        path: 'config.colors.accent',
        message: expect.stringMatching(
          /^the body text \(#20252d\) on `config\.colors\.accent` \(#1d3f6e\): contrast 1\.\d:1, below 4\.5:1/,
        ),
      },
    ]);
  });

  it('refuses such a file where institution files are parsed, with the message', () => {
    let refused: unknown;
    try {
      parseInstitutionFile(withColours({ primary: '#4a90e2' }));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(InstitutionFileError);
    expect((refused as InstitutionFileError).problems[0]).toMatch(
      /^config\.colors\.primary: `config\.colors\.primary` \(#4a90e2\) on white \(#ffffff\): contrast 3\.2:1, below 4\.5:1/,
    );
  });

  it('leaves the secondary colour unchecked: the pages draw nothing in it', () => {
    expect(institutionColourProblems(withColours({ secondary: '#ffff00' }))).toEqual([]);
  });
});
