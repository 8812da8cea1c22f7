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
  /** Name, city, state and ZIP words: what a query word may match. */
  readonly words: readonly string[];
  /** Position in alphabetical order of name, then sub-text (the last tie-break). */
  order: number;
}

const ROWS = [new Int32Array(65), new Int32Array(65), new Int32Array(65)];

/** Optimal-string-alignment distance of two short words, or max + 1 once it exceeds max. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length > 64 || b.length > 64) return max + 1;
  let [prevPrev, prev, row] = ROWS as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      )
        d = Math.min(d, (prevPrev[j - 2] as number) + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    [prevPrev, prev, row] = [prev, row, prevPrev];
  }
  return prev[b.length] as number;
}

/** Typos forgiven in a query word: none up to three letters, one from four, two from eight. */
const typos = (word: string) => (word.length >= 8 ? 2 : word.length >= 4 ? 1 : 0);

/** Whether a query word matches a word of an entry: as a prefix, or within its typo allowance. */
function wordMatches(query: string, word: string): boolean {
  if (word.startsWith(query)) return true;
  const max = typos(query);
  // Typos are forgiven after the first letter (people rarely mistype it; it keeps checks cheap).
  if (max === 0 || query.charCodeAt(0) !== word.charCodeAt(0)) return false;
  return (
    editDistance(query, word, max) <= max ||
    (word.length > query.length && editDistance(query, word.slice(0, query.length), max) <= max)
  );
}

/**
 * Candidates come from the query's rarest word: the entries with a word starting with it (a sorted
 * vocabulary, binary search), or, for a word no entry starts with or when too few entries match every
 * word, MiniSearch's typo-tolerant search of that word. Each candidate is then checked against the
 * other words, so a common word ("high", "school") never makes the search score the whole list.
 */
export class LookupIndex {
  private readonly mini: MiniSearch<{ id: number; words: string }>;
  private readonly entries: Indexed[] = [];
  /** How many entries have a word starting with each prefix (to pick the rarest query word). */
  private readonly prefixCounts = new Map<string, number>();
  /** Every word, sorted, and the entries that have it. */
  private readonly vocabulary: string[];
  private readonly postings = new Map<string, number[]>();
  /** Per entry: the search that last took it as a candidate (dedupes without a Set). */
  private readonly stamps: Uint32Array;
  private stamp = 0;

  constructor(entries: readonly LookupEntry[]) {
    this.mini = new MiniSearch({
      fields: ['words'],
      idField: 'id',
      tokenize: (text) => text.split(' '),
      processTerm: (term) => term || null,
      searchOptions: { tokenize: (text) => [text], processTerm: (term) => term || null },
    });
    const docs = entries.map((entry, index) => {
      const nameWords = words(entry.text);
      const all = [
        ...new Set([
          ...nameWords,
          ...words(entry.fields.city ?? ''),
          ...words(entry.fields.state ?? ''),
          ...words(entry.fields.zip ?? ''),
        ]),
      ];
      this.entries.push({ entry, name: nameWords.join(' '), nameWords, words: all, order: 0 });
      const prefixes = new Set<string>();
      for (const word of all) {
        for (let i = 1; i <= word.length; i++) prefixes.add(word.slice(0, i));
        let list = this.postings.get(word);
        if (!list) this.postings.set(word, (list = []));
        list.push(index);
      }
      for (const prefix of prefixes)
        this.prefixCounts.set(prefix, (this.prefixCounts.get(prefix) ?? 0) + 1);
      return { id: index, words: all.join(' ') };
    });
    this.mini.addAll(docs);
    this.vocabulary = [...this.postings.keys()].sort();
    this.stamps = new Uint32Array(entries.length);
    const collator = new Intl.Collator('en');
    [...this.entries]
      .sort(
        (a, b) =>
          collator.compare(a.name, b.name) || collator.compare(a.entry.subText, b.entry.subText),
      )
      .forEach((indexed, order) => (indexed.order = order));
  }

  get size(): number {
    return this.entries.length;
  }

  /** Adds the entries with a word starting with `prefix` that are not candidates yet. */
  private addPrefixCandidates(prefix: string, out: number[]): void {
    const vocabulary = this.vocabulary;
    let low = 0;
    let high = vocabulary.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((vocabulary[mid] as string) < prefix) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < vocabulary.length; i++) {
      const word = vocabulary[i] as string;
      if (!word.startsWith(prefix)) break;
      for (const id of this.postings.get(word) as number[]) this.add(id, out);
    }
  }

  /** Adds the entries MiniSearch finds for `word` with typos (prefix search too). */
  private addFuzzyCandidates(word: string, out: number[]): void {
    const max = typos(word);
    if (max === 0) return;
    for (const hit of this.mini.search(word, { prefix: true, fuzzy: max }))
      this.add(hit.id as number, out);
  }

  private add(id: number, out: number[]): void {
    if (this.stamps[id] === this.stamp) return;
    this.stamps[id] = this.stamp;
    out.push(id);
  }

  search(text: string, maxResults: number): Suggestion[] {
    const all = words(text);
    const queryWords = [...new Set(all)];
    if (queryWords.length === 0) return [];
    const query = all.join(' ');
    const count = (word: string) => this.prefixCounts.get(word) ?? 0;
    const byRarity = [...queryWords].sort((a, b) => count(a) - count(b));
    this.stamp = (this.stamp + 1) >>> 0 || 1;
    for (const seed of byRarity) {
      const candidates: number[] = [];
      if (count(seed) > 0) this.addPrefixCandidates(seed, candidates);
      else this.addFuzzyCandidates(seed, candidates);
      if (candidates.length === 0) continue;
      let ranked = this.top(candidates, query, queryWords, maxResults);
      if (
        count(seed) > 0 &&
        ranked.filter((r) => r.matched === queryWords.length).length < maxResults
      ) {
        const before = candidates.length;
        this.addFuzzyCandidates(seed, candidates);
        if (candidates.length > before)
          ranked = this.top(candidates, query, queryWords, maxResults);
      }
      return ranked.slice(0, maxResults).map(({ indexed: { entry } }) => ({
        text: entry.text,
        id: entry.id,
        sub_text: entry.subText,
      }));
    }
    return [];
  }

  /**
   * The best `k` candidates: exact and prefix matches of the name first, then entries matching more
   * of the words (city and state count), then A to Z. A bounded insertion keeps it O(n·k).
   */
  private top(
    candidates: readonly number[],
    query: string,
    queryWords: readonly string[],
    k: number,
  ): { indexed: Indexed; matched: number }[] {
    const best: { key: number; indexed: Indexed; matched: number }[] = [];
    for (const id of candidates) {
      const indexed = this.entries[id] as Indexed;
      let matched = 0;
      for (const word of queryWords) if (indexed.words.some((w) => wordMatches(word, w))) matched++;
      const key =
        (tier(indexed, query, queryWords) * 64 + (queryWords.length - matched)) * 2 ** 24 +
        indexed.order;
      if (best.length === k && key >= (best[k - 1] as { key: number }).key) continue;
      let at = best.length;
      while (at > 0 && (best[at - 1] as { key: number }).key > key) at--;
      best.splice(at, 0, { key, indexed, matched });
      if (best.length > k) best.pop();
    }
    return best;
  }
}

/** 0: the name is the query; 1: the name starts with it; 2: every query word starts a name word; 3: else. */
function tier(
  indexed: { readonly name: string; readonly nameWords: readonly string[] },
  query: string,
  queryWords: readonly string[],
): number {
  if (indexed.name === query) return 0;
  if (indexed.name.startsWith(query)) return 1;
  if (queryWords.every((word) => indexed.nameWords.some((name) => name.startsWith(word)))) return 2;
  return 3;
}

/** A prepared entry of the benchmark's baseline. */
export interface ScanEntry {
  readonly entry: LookupEntry;
  readonly name: string;
  readonly nameWords: readonly string[];
}

export function scanEntries(entries: readonly LookupEntry[]): ScanEntry[] {
  return entries.map((entry) => {
    const nameWords = words(entry.text);
    return { entry, name: nameWords.join(' '), nameWords };
  });
}

/**
 * The benchmark's baseline: a linear scan of the same list with the same folding and the same name
 * tiers (exact, prefix, every word a prefix of a name word), best first; no typo tolerance.
 */
export function linearScan(
  entries: readonly ScanEntry[],
  text: string,
  maxResults: number,
): Suggestion[] {
  const queryWords = words(text);
  if (queryWords.length === 0) return [];
  const query = queryWords.join(' ');
  const hits: { scan: ScanEntry; tier: number }[] = [];
  for (const scan of entries) {
    const t = tier(scan, query, queryWords);
    if (t < 3) hits.push({ scan, tier: t });
  }
  hits.sort((a, b) => a.tier - b.tier || a.scan.name.localeCompare(b.scan.name));
  return hits.slice(0, maxResults).map(({ scan: { entry } }) => ({
    text: entry.text,
    id: entry.id,
    sub_text: entry.subText,
  }));
}
