/**
 * Lookup answers for a tenant: suggestions from an in-memory index per tenant and category (built
 * from the database, rebuilt when the list's version changes, so an import by any process shows up
 * at the next search), and detail records read from the database.
 */
import { and, eq } from 'drizzle-orm';
import type { LookupCategoryName } from '../../contract';
import type { Definition } from '../../runtime';
import type { Database } from '../db/client';
import { lookupEntries, lookupLists } from '../db/schema';
import { withDescriptions } from './rows';
import { LookupIndex, type Suggestion } from './search';
import { optionSources } from './store';

interface Cached {
  readonly version: number;
  readonly index: Promise<LookupIndex>;
}

export class LookupService {
  private readonly cache = new Map<string, Cached>();

  /** `ready`: the sample lists are seeded (lookups wait for it). */
  constructor(
    private readonly db: Database,
    private readonly ready: Promise<void> = Promise.resolve(),
  ) {}

  private async currentVersion(tenantId: string, category: LookupCategoryName) {
    const [row] = await this.db
      .select({ version: lookupLists.version })
      .from(lookupLists)
      .where(and(eq(lookupLists.tenantId, tenantId), eq(lookupLists.category, category)));
    return row?.version ?? 0;
  }

  private async index(tenantId: string, category: LookupCategoryName): Promise<LookupIndex> {
    const key = `${tenantId}\u0000${category}`;
    const version = await this.currentVersion(tenantId, category);
    const cached = this.cache.get(key);
    if (cached && cached.version === version) return cached.index;
    const index = this.db
      .select({
        id: lookupEntries.id,
        text: lookupEntries.text,
        subText: lookupEntries.subText,
        fields: lookupEntries.fields,
      })
      .from(lookupEntries)
      .where(and(eq(lookupEntries.tenantId, tenantId), eq(lookupEntries.category, category)))
      .then((rows) => new LookupIndex(rows));
    this.cache.set(key, { version, index });
    index.catch(() => {
      if (this.cache.get(key)?.index === index) this.cache.delete(key);
    });
    return index;
  }

  async search(
    tenantId: string,
    category: LookupCategoryName,
    text: string,
    maxResults: number,
  ): Promise<Suggestion[]> {
    if (text.trim() === '') return [];
    await this.ready;
    return (await this.index(tenantId, category)).search(text, maxResults);
  }

  /** The detail record with `_desc` labels, or null when the id is not in the tenant's list. */
  async detail(
    tenantId: string,
    definition: Definition,
    category: LookupCategoryName,
    id: string,
  ): Promise<Record<string, string> | null> {
    await this.ready;
    const [row] = await this.db
      .select({ fields: lookupEntries.fields })
      .from(lookupEntries)
      .where(
        and(
          eq(lookupEntries.tenantId, tenantId),
          eq(lookupEntries.category, category),
          eq(lookupEntries.id, id),
        ),
      );
    return row ? withDescriptions(row.fields, optionSources(definition)) : null;
  }
}
