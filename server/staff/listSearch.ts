/**
 * The search of the console's list (D146): the words typed, folded by the database's
 * `staff_search_words` (migration 0017), the one function the rows' words go through too, so case,
 * accents and punctuation are the same on both sides; each word must start a word of the
 * applicant's names or address. An application reference (`XXXX-XXXX`, with or without its
 * hyphen) finds its application too. Rows rank: the reference, then rows where every word is a
 * whole word, then the rest (prefixes).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { referenceIdRange } from '../applicationPdf';

/** Words of a search taken into account (an address alone may be five or six). */
const MAX_WORDS = 8;

/** The ranks of the rows a search finds, best first. */
export const SEARCH_RANKS = { reference: 0, wholeWords: 1, prefixes: 2 } as const;

export interface ListSearch {
  /** The folded words, at most `MAX_WORDS`. */
  readonly words: readonly string[];
  /** The ids a typed reference stands for, lowest and highest; null when it is not one. */
  readonly reference: readonly [string, string] | null;
  /**
   * Whether rows are ranked: not when every word is one character (`a`, `j s`), which starts the
   * words of most rows; those rows are the list in its own order, read down its sort index (D199).
   */
  readonly ranked: boolean;
}

/** The shortest word that ranks a search. */
export const RANKED_FROM = 2;

/** What a search finds by; null when it finds by nothing (blank, or punctuation only). */
export async function searchOf(db: Database, q: string | undefined): Promise<ListSearch | null> {
  if (!q?.trim()) return null;
  const result = (await db.execute(sql`select staff_search_words(${q}) as words`)) as unknown as {
    rows: { words: string[] | string }[];
  };
  const raw = result.rows[0]?.words ?? [];
  const words = (typeof raw === 'string' ? parseTextArray(raw) : raw).slice(0, MAX_WORDS);
  const reference = referenceIdRange(q);
  const ranked = reference !== null || words.some((word) => [...word].length >= RANKED_FROM);
  return words.length === 0 && reference === null ? null : { words, reference, ranked };
}

/** A `text[]` as a driver may hand it back: `{a,b}`, quoted where needed. */
function parseTextArray(text: string): string[] {
  const inner = text.slice(1, -1);
  if (inner === '') return [];
  return [...inner.matchAll(/"((?:[^"\\]|\\.)*)"|([^,]+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!,
  );
}

/**
 * The first string after every string that starts with `prefix`, in code-point order (the words'
 * "C" collation): the last code point one higher, skipping the surrogates. Null when there is none.
 */
export function prefixEnd(prefix: string): string | null {
  const points = [...prefix].map((c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < 0x10ffff) {
      points.push(last === 0xd7ff ? 0xe000 : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return null;
}

/** The applicants with a word that starts with `word`: one range of the words' primary key. */
function startsWord(tenantId: string, word: string): SQL {
  const end = prefixEnd(word);
  return sql`select w.user_id from staff_listing_words w
    where w.tenant_id = ${tenantId} and w.word >= ${word}${end === null ? sql`` : sql` and w.word < ${end}`}`;
}

/** The applicants with `word` as a whole word: one key of the words' primary key. */
const isWord = (tenantId: string, word: string) =>
  sql`select w.user_id from staff_listing_words w where w.tenant_id = ${tenantId} and w.word = ${word}`;

/** The applicants with every word: the ranges' applicants in common. */
const everyWord = (tenantId: string, words: readonly string[], one: typeof isWord) =>
  sql.join(
    words.map((word) => one(tenantId, word)),
    sql` intersect `,
  );

/** The applicant of a reference: a range of the list's primary key. */
const ofReference = (tenantId: string, [low, high]: readonly [string, string]) =>
  sql`select r.user_id from staff_listing r
    where r.tenant_id = ${tenantId} and r.user_id >= ${low}::uuid and r.user_id <= ${high}::uuid`;

/**
 * The applicants a search finds, each word's range read before the list's rows (one broad word
 * then costs no scan of the list).
 */
export function foundBy(tenantId: string, search: ListSearch): SQL {
  const byWords =
    search.words.length > 0
      ? sql`select * from (${everyWord(tenantId, search.words, startsWord)}) s`
      : null;
  if (search.reference === null) return byWords!;
  const byReference = ofReference(tenantId, search.reference);
  return byWords === null ? byReference : sql`${byReference} union ${byWords}`;
}

/** A row's rank for a search (`SEARCH_RANKS`), `l` being the list's row. */
export function rankOf(tenantId: string, search: ListSearch): SQL {
  const reference =
    search.reference === null
      ? sql``
      : sql`when l.user_id >= ${search.reference[0]}::uuid and l.user_id <= ${search.reference[1]}::uuid then ${sql.raw(String(SEARCH_RANKS.reference))} `;
  const whole =
    search.words.length === 0
      ? sql``
      : sql`when l.user_id in (${everyWord(tenantId, search.words, isWord)}) then ${sql.raw(String(SEARCH_RANKS.wholeWords))} `;
  return sql`(case ${reference}${whole}else ${sql.raw(String(SEARCH_RANKS.prefixes))} end)`;
}
