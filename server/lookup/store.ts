/**
 * The lookup tables: replacing a tenant's list in one transaction (all or nothing), and seeding the
 * bundled sample lists where a tenant has none yet.
 */
import { readFileSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { LOOKUP_CATEGORIES, type LookupCategoryName } from '../../contract';
import type { Definition } from '../../runtime';
import type { Database } from '../db/client';
import { lookupEntries, lookupLists } from '../db/schema';
import { readLookupCsv } from './csv';
import type { OptionSources } from './rows';
import type { LookupEntry } from './search';

/** The option lists a tenant's definition gives for states and countries. */
export function optionSources(definition: Definition): OptionSources {
  return {
    states: definition.optionLists.stateAndProvince ?? [],
    countries: definition.optionLists.countries ?? [],
  };
}

const BATCH = 1000;

/** Replaces the tenant's list of `category` with `entries` in one transaction; returns the new version. */
export async function replaceList(
  db: Database,
  tenantId: string,
  category: LookupCategoryName,
  entries: readonly LookupEntry[],
  options: { sample: boolean; now: Date },
): Promise<number> {
  return db.transaction(async (tx) => {
    const scope = and(eq(lookupLists.tenantId, tenantId), eq(lookupLists.category, category));
    const [current] = await tx
      .select({ version: lookupLists.version })
      .from(lookupLists)
      .where(scope)
      .for('update');
    const version = (current?.version ?? 0) + 1;
    await tx
      .delete(lookupEntries)
      .where(and(eq(lookupEntries.tenantId, tenantId), eq(lookupEntries.category, category)));
    for (let start = 0; start < entries.length; start += BATCH) {
      await tx.insert(lookupEntries).values(
        entries.slice(start, start + BATCH).map((entry) => ({
          tenantId,
          category,
          id: entry.id,
          text: entry.text,
          subText: entry.subText,
          fields: { ...entry.fields },
        })),
      );
    }
    const row = {
      version,
      sample: options.sample,
      rowCount: entries.length,
      importedAt: options.now,
    };
    await tx
      .insert(lookupLists)
      .values({ tenantId, category, ...row })
      .onConflictDoUpdate({ target: [lookupLists.tenantId, lookupLists.category], set: row });
    return version;
  });
}

/** The bundled sample list of a category (fictional entries, each name marked "(sample)"). */
export function sampleCsv(category: LookupCategoryName): string {
  return readFileSync(new URL(`./sample/${category}.csv`, import.meta.url), 'utf8');
}

/**
 * Seeds the sample lists of every category the tenant has no list for (first start). A sample whose
 * codes the tenant's form does not offer (a college whose form asks no such question) is left out
 * with a warning: that tenant's lookups of the category find nothing until it imports its own list,
 * and every other tenant and category is still seeded.
 */
export async function seedSampleLists(
  db: Database,
  tenantId: string,
  definition: Definition,
  now: Date,
  log?: Pick<FastifyBaseLogger, 'warn'>,
): Promise<void> {
  const present = new Set(
    (
      await db
        .select({ category: lookupLists.category })
        .from(lookupLists)
        .where(eq(lookupLists.tenantId, tenantId))
    ).map((row) => row.category),
  );
  for (const category of LOOKUP_CATEGORIES) {
    if (present.has(category)) continue;
    const result = readLookupCsv(category, sampleCsv(category), optionSources(definition));
    if (!result.ok) {
      const reason = `line ${result.problems[0]?.line}: ${result.problems[0]?.message}`;
      if (!log) throw new Error(`The sample ${category} list is invalid: ${reason}`);
      log.warn({ tenant: tenantId, category, reason }, 'sample lookup list left out');
      continue;
    }
    try {
      await replaceList(db, tenantId, category, result.entries, { sample: true, now });
    } catch (error) {
      // Another process seeded it at the same moment: its list stands.
      const again = await db
        .select({ category: lookupLists.category })
        .from(lookupLists)
        .where(and(eq(lookupLists.tenantId, tenantId), eq(lookupLists.category, category)));
      if (again.length === 0) throw error;
    }
  }
}
