/**
 * The documents' map cannot rot silently: every relative link in docs/ reaches a file or folder of
 * the repository, and every `name` written right after a link to a source file (a walkthrough's hop,
 * a checklist's line: "[runtime/rules.ts](../runtime/rules.ts) `compileRule`") occurs in that file.
 * A failure names the document, the line and the link or name that no longer holds.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = join(ROOT, 'docs');

/** `[text](target)`, the target without an optional title; images too. */
const INLINE_LINK = /\[[^\]]*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g;
/** `[label]: target` on a line of its own. */
const REFERENCE_LINK = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/;
/** A link followed by the names it stands for: `` [path](path) `name`, `other` and `third` ``. */
const NAMED_LINK = /\[[^\]]*\]\(<?([^)\s>]+)>?\)((?:(?:\s*,\s*|\s+and\s+|\s+)`[^`]+`)+)/g;

/** Every Markdown file under a folder. */
function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/**
 * The text outside fenced code blocks, one entry per paragraph or list item (its lines joined, so a
 * link and the names after it may wrap), with the number of its first line.
 */
function proseBlocks(text: string): { block: string; number: number }[] {
  const blocks: { block: string; number: number }[] = [];
  let fenced = false;
  let open = false;
  text.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const prose = !fenced && !/^\s*(```|~~~)/.test(line) && line.trim() !== '';
    const last = blocks[blocks.length - 1];
    if (!prose) open = false;
    else if (open && last && !/^\s*([-*+]|\d+\.)\s/.test(line) && !REFERENCE_LINK.test(line))
      last.block += ` ${line.trim()}`;
    else {
      blocks.push({ block: line, number: index + 1 });
      open = true;
    }
  });
  return blocks;
}

interface Files {
  exists(path: string): boolean;
  /** A file's text; null for a folder. */
  read(path: string): string | null;
}

const repository: Files = {
  exists: existsSync,
  read(path) {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return null;
    }
  },
};

/** A target inside the repository: not a URL, not an anchor of the same page, not an e-mail. */
function isRelative(target: string): boolean {
  return !/^([a-z][a-z\d+.-]*:|#|\/\/)/i.test(target);
}

/** The repository path a relative link from `from` reaches, without its anchor. */
function resolveTarget(from: string, target: string): string {
  const path = decodeURIComponent(target.replace(/[#?].*$/, ''));
  return path === '' ? from : join(dirname(from), path);
}

/**
 * The problems of one document: relative links that reach nothing, and names given beside a linked
 * file that the file does not contain. `exists` and `contents` are the file system, for the test's
 * own check that a broken map is found.
 */
function mapProblems(path: string, text: string, files: Files = repository): string[] {
  const problems: string[] = [];
  const where = (number: number) => `${relative(ROOT, path)}:${number}`;
  for (const { block, number } of proseBlocks(text)) {
    const targets = [...block.matchAll(INLINE_LINK)].map((match) => match[1] ?? '');
    const reference = REFERENCE_LINK.exec(block)?.[1];
    if (reference !== undefined) targets.push(reference);
    for (const target of targets.filter(isRelative)) {
      if (!files.exists(resolveTarget(path, target)))
        problems.push(`${where(number)}: ${target} does not exist`);
    }
    for (const match of block.matchAll(NAMED_LINK)) {
      const target = match[1] ?? '';
      if (!isRelative(target) || target.endsWith('.md')) continue;
      const source = files.read(resolveTarget(path, target));
      if (source === null) continue; // a missing file is told above
      for (const [, name] of (match[2] ?? '').matchAll(/`([^`]+)`/g)) {
        if (name !== undefined && !source.includes(name))
          problems.push(`${where(number)}: \`${name}\` is not in ${target}`);
      }
    }
  }
  return problems;
}

const documents = markdownFiles(DOCS);

describe('the documents map the repository as it is', () => {
  it('reads every document, the walkthroughs among them', () => {
    // An empty listing, or a map without its hops, would let the checks below pass.
    expect(documents.map((path) => relative(ROOT, path))).toContain('docs/architecture.md');
    const architecture = readFileSync(join(DOCS, 'architecture.md'), 'utf8');
    expect([...architecture.matchAll(NAMED_LINK)].length).toBeGreaterThanOrEqual(40);
  });

  it('finds a broken link and a name its file no longer holds', () => {
    const path = join(DOCS, 'example.md');
    const sources: Record<string, string> = {
      [join(ROOT, 'runtime/rules.ts')]: 'export function compileRule() {}',
    };
    const text = [
      'See [the rules](../runtime/rules.ts) `compileRule`, `compileRules` and [gone](../runtime/gone.ts).',
      '[the site](https://example.org) and [this page](#top) are not files.',
      '```',
      '[inside a code block](../nowhere.ts) is no link',
      '```',
      '',
      '1. [a hop that wraps](../runtime/rules.ts)',
      '   `compileRule`, `gone`: the names on its next line count too.',
      '[a reference]: ../runtime/missing.ts',
    ].join('\n');
    const files: Files = {
      exists: (file) => file in sources,
      read: (file) => sources[file] ?? null,
    };
    expect(mapProblems(path, text, files)).toEqual([
      'docs/example.md:1: ../runtime/gone.ts does not exist',
      'docs/example.md:1: `compileRules` is not in ../runtime/rules.ts',
      'docs/example.md:7: `gone` is not in ../runtime/rules.ts',
      'docs/example.md:9: ../runtime/missing.ts does not exist',
    ]);
  });

  it.each(documents.map((path) => [relative(ROOT, path), path]))(
    '%s: every relative link reaches a file, every name beside a linked file is in it',
    (_name, path) => {
      expect(mapProblems(path, readFileSync(path, 'utf8'))).toEqual([]);
    },
  );
});
