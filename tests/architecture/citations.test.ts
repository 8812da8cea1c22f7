/**
 * Every citation of a requirement or a decision in the code and the documents resolves
 * (docs/requirements/README.md): "SPEC x.y" to a heading of docs/requirements/spec.md, "SPEC-x.y.z"
 * to one of its lines, "REQ-…", "SECURITY.md x.y" and "ASVS x.y.z" to docs/requirements/security.md,
 * "Dn" to a record in docs/decisions/. A failure names the file and line of each citation that
 * does not resolve. A tracker's issue number is no citation: none may appear, in any text file.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CITING = /\.(ts|tsx|mts|mjs|md|sql)$/;
const NOT_CITING = /(^|\/)(node_modules|dist)\/|^tests\/fixtures\//;

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
/** A match's group; every group these expressions name always takes part in the match. */
const group = (match: RegExpMatchArray, index: number) => match[index] ?? '';

/** Every file git tracks or would track (new files count before a commit), of the given kinds. */
function citingFiles(kinds = CITING, outside = NOT_CITING): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((path) => kinds.test(path) && !outside.test(path))
    .filter((path) => {
      try {
        read(path);
        return true;
      } catch {
        return false; // deleted in the work tree but not yet in the index
      }
    });
}

/** The headings `## PREFIX x.y Title` and the identifiers opening its lines, `` - `PREFIX-x.y.z` ``. */
function catalogue(text: string, prefix: string) {
  const headings = new Set(
    [...text.matchAll(new RegExp(`^#{2,4} ${prefix} (\\d+(?:\\.\\d+)*) `, 'gm'))].map((m) =>
      group(m, 1),
    ),
  );
  const identifiers = [...text.matchAll(new RegExp(`^- \`(${prefix}-[\\w.-]*\\d)\``, 'gm'))].map(
    (m) => group(m, 1),
  );
  return { headings, identifiers };
}

/** `` `ASVS-3.3.1` to `ASVS-3.3.4` `` stands for the four requirements. */
function asvsIdentifiers(text: string): Set<string> {
  const ids = new Set([...text.matchAll(/`ASVS-([\d.]+)`/g)].map((m) => group(m, 1)));
  for (const range of text.matchAll(/`ASVS-([\d.]+)` to `ASVS-([\d.]+)`/g)) {
    const [from, to] = [group(range, 1), group(range, 2)];
    const stem = from.slice(0, from.lastIndexOf('.') + 1);
    const first = Number(from.slice(stem.length));
    const last = Number(to.slice(stem.length));
    for (let n = first; n <= last; n += 1) ids.add(`${stem}${n}`);
  }
  return ids;
}

const spec = catalogue(read('docs/requirements/spec.md'), 'SPEC');
const securityText = read('docs/requirements/security.md');
const security = catalogue(securityText, 'SECURITY');
const requirements = new Set(catalogue(securityText, 'REQ').identifiers);
const asvs = asvsIdentifiers(securityText);
const decisions = new Set(
  readdirSync(join(ROOT, 'docs/decisions'))
    .map((name) => /^(\d{4})-.+\.md$/.exec(name)?.[1])
    .filter((number) => number !== undefined)
    .map(Number),
);

const NUMBER = String.raw`\d+(?:\.\d+)*`;
/** "SPEC 2.3", and the sections listed after it: "SPEC 2.3, 2.4 and 4.1". */
const SPEC_SECTIONS = new RegExp(`\\bSPEC (${NUMBER}(?:(?:, | and | or |/)${NUMBER})*)`, 'g');

/** Each citation on one line, with whether it resolves. */
function citationsOf(line: string): { citation: string; resolves: boolean }[] {
  const found: { citation: string; resolves: boolean }[] = [];
  for (const match of line.matchAll(SPEC_SECTIONS)) {
    for (const section of group(match, 1).split(/, | and | or |\//)) {
      found.push({ citation: `SPEC ${section}`, resolves: spec.headings.has(section) });
    }
  }
  for (const [citation] of line.matchAll(/\bSPEC-\d+(?:\.\d+)+\b/g)) {
    found.push({ citation, resolves: spec.identifiers.includes(citation) });
  }
  for (const [citation] of line.matchAll(/\bREQ-[A-Z]+-\d+\b/g)) {
    found.push({ citation, resolves: requirements.has(citation) });
  }
  for (const match of line.matchAll(new RegExp(`\\bSECURITY\\.md (${NUMBER})`, 'g'))) {
    const [citation, section] = [match[0], group(match, 1)];
    const resolves =
      security.headings.has(section) || security.identifiers.includes(`SECURITY-${section}`);
    found.push({ citation, resolves });
  }
  for (const match of line.matchAll(/\bASVS (\d+\.\d+(?:\.\d+)?)/g)) {
    const [citation, id] = [match[0], group(match, 1)];
    // "ASVS 16.3" cites the group of its rows.
    const resolves = asvs.has(id) || [...asvs].some((row) => row.startsWith(`${id}.`));
    found.push({ citation, resolves });
  }
  for (const [citation, number] of line.matchAll(/\bD(\d{1,3})\b/g)) {
    found.push({ citation, resolves: decisions.has(Number(number)) });
  }
  return found;
}

describe('every citation of a requirement or a decision resolves', () => {
  const files = citingFiles();

  it('reads the catalogues and the files that cite them', () => {
    // An empty catalogue or listing would let every check below pass.
    expect(spec.headings.size).toBeGreaterThanOrEqual(40);
    expect(spec.identifiers.length).toBeGreaterThanOrEqual(200);
    expect(requirements.size).toBe(13);
    expect(security.identifiers.length).toBeGreaterThanOrEqual(35);
    expect(decisions.size).toBeGreaterThanOrEqual(100);
    expect(files).toContain('runtime/index.ts');
  });

  it('gives each requirement one identifier, used once', () => {
    for (const ids of [spec.identifiers, security.identifiers]) {
      const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
      expect(repeated).toEqual([]);
    }
  });

  it('resolves every SPEC, REQ, SECURITY.md, ASVS and D citation (file:line of each that does not)', () => {
    const unresolved: string[] = [];
    let cited = 0;
    for (const path of files) {
      read(path)
        .split('\n')
        .forEach((line, index) => {
          for (const { citation, resolves } of citationsOf(line)) {
            cited += 1;
            if (!resolves) unresolved.push(`${path}:${index + 1}: ${citation}`);
          }
        });
    }
    expect(cited).toBeGreaterThan(500);
    expect(unresolved).toEqual([]);
  });
});

/** A tracker's issue number: "issue" or "issues" in any case, then a number, "#" or not. */
const TRACKER_NUMBER = /\bissues? #?\d+(?:\.\d+)?/gi;
/** Every text file: code, documents, data, scripts, fixtures; not the lockfile or built output. */
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|sql|css|html|json|sh|ya?ml)$|^\.ci\//;
const NOT_TEXT = /(^|\/)(node_modules|dist)\/|(^|\/)package-lock\.json$/;

describe('no tracker issue numbers', () => {
  const numbersIn = (line: string) => [...line.matchAll(TRACKER_NUMBER)].map(([number]) => number);
  /** Written in pieces, so that this file holds no issue number itself. */
  const numbered = (word: string, rest: string) => `${word} ${rest}`;

  it('knows an issue number in each way it is written, and "issue" in its other senses', () => {
    expect(numbersIn(`the first load (${numbered('issue', '14')})`)).toEqual([
      numbered('issue', '14'),
    ]);
    expect(numbersIn(`${numbered('Issue', '15.2')}: cheap refusals`)).toEqual([
      numbered('Issue', '15.2'),
    ]);
    expect(numbersIn(`(${numbered('issues', '4 and 14')})`)).toEqual([numbered('issues', '4')]);
    expect(numbersIn(`see ${numbered('issue', '#3')}`)).toEqual([numbered('issue', '#3')]);
    expect(
      numbersIn("an issue with the proxy; the issue's wording; rolldown/rolldown#10731"),
    ).toEqual([]);
  });

  it('cites a decision or a requirement, never an issue number (file:line of each)', () => {
    const files = citingFiles(TEXT, NOT_TEXT);
    // Fixtures, data and scripts are read too, not only the files that cite requirements.
    expect(files).toEqual(
      expect.arrayContaining(['tests/fixtures/sensitiveAnswers.ts', 'index.html', '.ci/run']),
    );
    const found: string[] = [];
    for (const path of files) {
      read(path)
        .split('\n')
        .forEach((line, index) => {
          for (const number of numbersIn(line)) found.push(`${path}:${index + 1}: ${number}`);
        });
    }
    expect(found).toEqual([]);
  });
});
