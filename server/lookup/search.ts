/**
 * The in-memory search of one lookup list (MiniSearch): prefix and typo tolerant, case- and
 * accent-insensitive. Exact and prefix matches of the name rank first; the score (which counts
 * matches in city and state too) breaks ties, then the name and sub-text alphabetically.
 */
import MiniSearch from 'minisearch';

export interface LookupEntry {
  readonly id: string;
  /** The display label (name, or address line 1 for addresses). */
  readonly text: string;
  readonly subText: string;
  /** The detail record's fields (unprefixed); `city`, `state` and `zip` are searched too. */
  readonly fields: Readonly<Record<string, string>>;
}

export interface Suggestion {
  readonly text: string;
  readonly id: string;
  readonly sub_text: string;
}

/** Lower case, without accents or other combining marks (É → e, ñ → n, ß stays ß). */
export function fold(value: string): string {
  return value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

const words = (value: string) =>
  fold(value)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

interface Indexed {
  readonly entry: LookupEntry;
  /** The folded name with single spaces between words. */
  readonly name: string;
  readonly nameWords: readonly string[];
}

export class LookupIndex {
  private readonly mini: MiniSearch<{
    id: number;
    name: string;
    city: string;
    state: string;
    zip: string;
  }>;
  private readonly entries: Indexed[] = [];

  constructor(entries: readonly LookupEntry[]) {
    this.mini = new MiniSearch({
      fields: ['name', 'city', 'state', 'zip'],
      idField: 'id',
      processTerm: (term) => fold(term) || null,
      searchOptions: { processTerm: (term) => fold(term) || null },
    });
    const docs = entries.map((entry, index) => {
      const nameWords = words(entry.text);
      this.entries.push({ entry, name: nameWords.join(' '), nameWords });
      return {
        id: index,
        name: entry.text,
        city: entry.fields.city ?? '',
        state: entry.fields.state ?? '',
        zip: entry.fields.zip ?? '',
      };
    });
    this.mini.addAll(docs);
  }

  get size(): number {
    return this.entries.length;
  }

  search(text: string, maxResults: number): Suggestion[] {
    const queryWords = words(text);
    if (queryWords.length === 0) return [];
    const query = queryWords.join(' ');
    const options = {
      prefix: true,
      // One typo from four letters on, two from eight (MiniSearch's fraction, capped at 2).
      fuzzy: (term: string) => (term.length >= 4 ? 0.25 : false),
      maxFuzzy: 2,
      boost: { name: 3 },
    };
    let hits = this.mini.search(text, { ...options, combineWith: 'AND' });
    if (hits.length === 0) hits = this.mini.search(text, { ...options, combineWith: 'OR' });
    const ranked = hits.map((hit) => {
      const indexed = this.entries[hit.id as number] as Indexed;
      return { indexed, tier: tier(indexed, query, queryWords), score: hit.score };
    });
    ranked.sort(
      (a, b) =>
        a.tier - b.tier ||
        b.score - a.score ||
        a.indexed.name.localeCompare(b.indexed.name) ||
        a.indexed.entry.subText.localeCompare(b.indexed.entry.subText),
    );
    return ranked.slice(0, maxResults).map(({ indexed: { entry } }) => ({
      text: entry.text,
      id: entry.id,
      sub_text: entry.subText,
    }));
  }
}

/** 0: the name is the query; 1: the name starts with it; 2: every query word starts a name word; 3: else. */
function tier(indexed: Indexed, query: string, queryWords: readonly string[]): number {
  if (indexed.name === query) return 0;
  if (indexed.name.startsWith(query)) return 1;
  if (queryWords.every((word) => indexed.nameWords.some((name) => name.startsWith(word)))) return 2;
  return 3;
}

/** The baseline of the benchmark: a linear scan with the same folding (prefix of any name word). */
export function linearScan(
  entries: readonly { readonly entry: LookupEntry; readonly folded: string }[],
  text: string,
  maxResults: number,
): Suggestion[] {
  const query = words(text).join(' ');
  if (query === '') return [];
  const out: Suggestion[] = [];
  for (const { entry, folded } of entries) {
    if (folded.startsWith(query) || folded.includes(` ${query}`)) {
      out.push({ text: entry.text, id: entry.id, sub_text: entry.subText });
      if (out.length >= maxResults) break;
    }
  }
  return out;
}
