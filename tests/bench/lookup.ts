/**
 * Lookup benchmark (D45): p99 search latency over 30,000 synthetic high schools with 1,000 random
 * prefixes, for the MiniSearch index the server uses, beside a linear scan of the same list (same
 * folding and name ranking, no typo tolerance) in the same run. Also measured, as the options the
 * index was chosen over (docs/decisions/ D45): plain MiniSearch (prefix + fuzzy over name, city and
 * state) and PostgreSQL pg_trgm under PGlite (its contrib extension), 200 prefixes.
 * Target: p99 ≤ 50 ms for the index (an autocomplete that keeps up with typing).
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import MiniSearch from 'minisearch';
import {
  fold,
  LookupIndex,
  linearScan,
  scanEntries,
  type LookupEntry,
} from '../../server/lookup/search';

const SCHOOLS = 30_000;
const PREFIXES = 1_000;
const TRGM_PREFIXES = 200;
const TARGET_P99_MS = 50;

/** A small deterministic generator (mulberry32), so every run searches the same list. */
function random(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'Lincoln',
  'Washington',
  'Jefferson',
  'Roosevelt',
  'Kennedy',
  'Franklin',
  'Madison',
  'Monroe',
  'Central',
  'North',
  'South',
  'East',
  'West',
  'Riverside',
  'Lakeside',
  'Hillcrest',
  'Oak Ridge',
  'Pine',
  'Maple',
  'Cedar',
  'Valley',
  'Mountain View',
  'Bayview',
  'Sunset',
  'Saint Mary',
  'Sacred Heart',
  'Holy Cross',
  'Martin Luther King',
  'César Chávez',
  'Evergreen',
  'Highland',
  'Prairie',
  'Canyon',
  'Harbor',
  'Liberty',
  'Union',
  'Heritage',
  'Pioneer',
  'Summit',
  'Granite',
];
const SECOND = [
  '',
  'Park',
  'County',
  'Regional',
  'Memorial',
  'Township',
  'Community',
  'Magnet',
  'Senior',
];
const KIND = [
  'High School',
  'Academy',
  'Preparatory School',
  'Collegiate',
  'Charter School',
  'Secondary School',
];
const CITIES = [
  ['Springfield', 'Illinois'],
  ['Portland', 'Oregon'],
  ['Franklin', 'Tennessee'],
  ['Greenville', 'South Carolina'],
  ['Madison', 'Wisconsin'],
  ['Salem', 'Massachusetts'],
  ['Fairview', 'Texas'],
  ['Clinton', 'Iowa'],
  ['Georgetown', 'Kentucky'],
  ['Arlington', 'Virginia'],
  ['Dover', 'Delaware'],
  ['Auburn', 'Alabama'],
  ['Montréal', 'Quebec'],
  ['Riverside', 'California'],
  ['Bristol', 'Connecticut'],
  ['Milton', 'Florida'],
];

export function syntheticSchools(count: number, seed = 7): LookupEntry[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const out: LookupEntry[] = [];
  for (let i = 0; i < count; i++) {
    const [city, state] = pick(CITIES) as [string, string];
    const name =
      [pick(FIRST), pick(SECOND), pick(KIND)].filter(Boolean).join(' ') +
      ` ${i % 97 === 0 ? '' : i}`;
    const id = String(100000 + i);
    out.push({
      id,
      text: name.trim(),
      subText: `${city}, ${state}`,
      fields: { ceeb: id, name: name.trim(), city, state, country: 'USA' },
    });
  }
  return out;
}

/** Random prefixes as people type them: 2 to 12 characters of a name, some from its second word. */
function prefixes(entries: readonly LookupEntry[], count: number): string[] {
  const next = random(11);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = (entries[Math.floor(next() * entries.length)] as LookupEntry).text;
    const words = name.split(' ');
    const from = next() < 0.2 && words.length > 1 ? words.slice(1).join(' ') : name;
    out.push(from.slice(0, 2 + Math.floor(next() * 11)).trim() || from.slice(0, 2));
  }
  return out;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

async function time(queries: readonly string[], run: (q: string) => unknown): Promise<number[]> {
  const times: number[] = [];
  for (const q of queries) {
    const start = performance.now();
    await run(q);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

const ms = (n: number) => `${n.toFixed(3)} ms`;

export async function runLookupBench(): Promise<{ ok: boolean; lines: string[] }> {
  const entries = syntheticSchools(SCHOOLS);
  const queries = prefixes(entries, PREFIXES);

  const buildStart = performance.now();
  const index = new LookupIndex(entries);
  const buildMs = performance.now() - buildStart;
  const scan = scanEntries(entries);

  // Warm both (JIT), then measure in alternating order.
  for (const q of queries.slice(0, 50)) {
    index.search(q, 5);
    linearScan(scan, q, 5);
  }
  const indexed = await time(queries, (q) => index.search(q, 5));
  const linear = await time(queries, (q) => linearScan(scan, q, 5));
  const found = queries.filter((q) => index.search(q, 5).length > 0).length;

  // Plain MiniSearch: its own prefix and typo search over name, city and state, the best 5 kept.
  const plain = new MiniSearch<{ id: string; name: string; city: string; state: string }>({
    fields: ['name', 'city', 'state'],
    searchOptions: { prefix: true, fuzzy: 0.2 },
  });
  plain.addAll(
    entries.map((e) => ({
      id: e.id,
      name: e.text,
      city: e.fields.city ?? '',
      state: e.fields.state ?? '',
    })),
  );
  for (const q of queries.slice(0, 50)) plain.search(q).slice(0, 5);
  const miniSearch = await time(queries, (q) => plain.search(q).slice(0, 5));

  // pg_trgm under PGlite: the option D45 set aside, same list, folded names.
  const db = await PGlite.create({ extensions: { pg_trgm } });
  await db.exec(`CREATE EXTENSION pg_trgm;
    CREATE TABLE schools (id text PRIMARY KEY, name text NOT NULL, folded text NOT NULL);`);
  for (let i = 0; i < entries.length; i += 1000) {
    const batch = entries.slice(i, i + 1000);
    await db.query(`INSERT INTO schools SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`, [
      batch.map((e) => e.id),
      batch.map((e) => e.text),
      batch.map((e) => fold(e.text)),
    ]);
  }
  const trgmIndexStart = performance.now();
  await db.exec(
    `CREATE INDEX schools_trgm ON schools USING gin (folded gin_trgm_ops); ANALYZE schools;`,
  );
  const trgmIndexMs = performance.now() - trgmIndexStart;
  const trgmQueries = queries.slice(0, TRGM_PREFIXES);
  const sql = `SELECT id, name FROM schools WHERE $1 <% folded OR folded LIKE $2
    ORDER BY (folded LIKE $2) DESC, word_similarity($1, folded) DESC, name LIMIT 5`;
  for (const q of trgmQueries.slice(0, 10)) await db.query(sql, [fold(q), `${fold(q)}%`]);
  const trgm = await time(trgmQueries, (q) => db.query(sql, [fold(q), `${fold(q)}%`]));
  await db.close();

  const p99 = percentile(indexed, 99);
  const lines = [
    `${SCHOOLS} synthetic schools, ${PREFIXES} random prefixes (${found} with suggestions); index built in ${buildMs.toFixed(0)} ms`,
    `index (prefix + typos):            p50 ${ms(percentile(indexed, 50))}, p99 ${ms(p99)}, max ${ms(indexed.at(-1) ?? 0)} (target p99 ≤ ${TARGET_P99_MS} ms)`,
    `linear scan (prefix only):         p50 ${ms(percentile(linear, 50))}, p99 ${ms(percentile(linear, 99))}, max ${ms(linear.at(-1) ?? 0)}`,
    `ratio linear / index: p50 ${(percentile(linear, 50) / percentile(indexed, 50)).toFixed(1)}×, p99 ${(percentile(linear, 99) / p99).toFixed(1)}×`,
    `plain MiniSearch (prefix + fuzzy): p50 ${ms(percentile(miniSearch, 50))}, p99 ${ms(percentile(miniSearch, 99))}; ratio to index p99 ${(percentile(miniSearch, 99) / p99).toFixed(1)}×`,
    `pg_trgm on PGlite (${TRGM_PREFIXES} prefixes, GIN built in ${trgmIndexMs.toFixed(0)} ms): p50 ${ms(percentile(trgm, 50))}, p99 ${ms(percentile(trgm, 99))}; ratio to index p99 ${(percentile(trgm, 99) / p99).toFixed(1)}×`,
  ];
  return { ok: p99 <= TARGET_P99_MS, lines };
}
