/**
 * US ZIP codes → city and state, from the `zipcodes` data package (loaded on first use: ~5 MB).
 */
import { createRequire } from 'node:module';

interface ZipRecord {
  readonly zip: string;
  readonly city: string;
  readonly state: string;
  readonly country: string;
}
interface ZipModule {
  lookup(zip: string | number): ZipRecord | undefined;
  states: { abbr: Record<string, string> };
}

let zipcodes: ZipModule | null = null;
function load(): ZipModule {
  zipcodes ??= createRequire(import.meta.url)('zipcodes') as ZipModule;
  return zipcodes;
}

/** The city and state (two-letter code) of a US ZIP code, or null when the package does not know it. */
export function resolveUsZip(zip: string): { city: string; state: string } | null {
  const five = /^(\d{5})(?:-\d{4})?$/.exec(zip.trim())?.[1];
  if (!five) return null;
  const record = load().lookup(five);
  if (!record || record.country !== 'US') return null;
  return { city: record.city, state: record.state };
}

/** The full name of a US state or territory from its two-letter code ('CA' → 'CALIFORNIA'). */
export function usStateName(abbreviation: string): string | undefined {
  return load().states.abbr[abbreviation.toUpperCase()];
}
