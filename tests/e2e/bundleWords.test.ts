/**
 * D143: nothing institution-specific is in the bundle. Every built script and stylesheet is searched
 * for the embedded default's words: its institution file's texts (name, title, help address, offer,
 * welcome, completion steps, alerts, links) and its form's longer labels. The app reads them from the
 * page at run time (src/tenant/tenantData.ts). The theme's colours are left out: theme.css keeps
 * default values, which the institution's colours override at start.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedDefinitionFile, seedInstitutionFile } from '../../definitions/seed';
import { buildClient } from './harness';

/** Every string leaf of `value` under a key accepted by `keep` (its own key, its parent's). */
function strings(value: unknown, keep: (key: string, text: string) => boolean, key = ''): string[] {
  if (typeof value === 'string') return keep(key, value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => strings(item, keep, key));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => strings(v, keep, k));
  return [];
}

const { colors: _colors, ...config } = seedInstitutionFile.config;
const institutionWords = strings({ ...seedInstitutionFile, config }, (key, text) => {
  // `{name}` stands for the applicant's name; the texts around it are searched for.
  const parts = text.split('{name}');
  return key !== '$schema' && parts.some((part) => part.length >= 8);
}).flatMap((text) => text.split('{name}').filter((part) => part.length >= 8));
const formLabels = strings(
  seedDefinitionFile,
  (key, text) => (key === 'label' || key === 'title') && text.length >= 25,
);

describe('the built client', () => {
  it("holds none of the embedded default institution's words", async () => {
    const dir = path.join(await buildClient(), 'assets');
    const files = (await readdir(dir)).filter((file) => /\.(js|css)$/.test(file));
    expect(files.length).toBeGreaterThan(0);
    const needles = [...new Set([...institutionWords, ...formLabels])];
    // The test must be able to fail: it knows the words it looks for.
    expect(needles).toEqual(
      expect.arrayContaining([
        'Northfield College',
        'apply-help@northfield.example.edu',
        'No essay requirement',
        'Send your high school transcript',
        'Is your mailing address the same as your permanent address?',
      ]),
    );
    const found: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(dir, file), 'utf8');
      for (const needle of needles) {
        // As written in a script's string literal too (quotes and apostrophes escaped).
        const forms = [needle, JSON.stringify(needle).slice(1, -1), needle.replaceAll("'", "\\'")];
        if (forms.some((form) => text.includes(form))) found.push(`${file}: ${needle}`);
      }
    }
    expect(found).toEqual([]);
  }, 300_000);
});
