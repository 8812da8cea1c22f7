/**
 * The server's import graph, read from its sources: every static `import`, `export … from` and
 * `import()` of `server/**\/*.ts`, resolved to files (relative paths and the `#server/…` alias of
 * package.json). Used by tests/architecture/serverImports.test.ts (D204).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Server sources that git tracks or would track (new files count before a commit). */
export function serverSources(): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', 'server'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return listed.split('\n').filter((path) => path.endsWith('.ts') && existsSync(join(ROOT, path)));
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** The server file an import names, or undefined for a package or a file outside server/. */
function resolveImport(importer: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('#server/'))
    base = join(ROOT, 'server', specifier.slice('#server/'.length));
  else if (specifier.startsWith('.')) base = resolve(ROOT, dirname(importer), specifier);
  else return undefined;
  const found = [base, `${base}.ts`, join(base, 'index.ts')].find(isFile);
  if (found === undefined) throw new Error(`${importer}: cannot resolve ${specifier}`);
  const path = relative(ROOT, found);
  return path.startsWith('server/') ? path : undefined;
}

/** File → the server files it imports (type-only imports count: they are dependencies too). */
export function fileGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(
        readFileSync(join(ROOT, file), 'utf8'),
        true,
        true,
      );
      const targets = importedFiles
        .map(({ fileName }) => resolveImport(file, fileName))
        .filter((target): target is string => target !== undefined && target.endsWith('.ts'));
      return [file, [...new Set(targets)]];
    }),
  );
}

/** A file's node in the folder graph: its first folder under server/, or the root file itself. */
export const folderOf = (file: string): string => file.split('/')[1]!;

/** "from -> to" → the file imports that make the arrow, between different folder nodes. */
export function folderArrows(files: Map<string, string[]>): Map<string, string[]> {
  const arrows = new Map<string, string[]>();
  for (const [file, targets] of files)
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      arrows.set(key, [...(arrows.get(key) ?? []), `${file} -> ${target}`]);
    }
  return arrows;
}

/** Tarjan's strongly connected components of more than one node, largest first. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => b.length - a.length);
}

/** One loop through a component, for a readable failure: a → b → … → a. */
export function loopThrough(component: readonly string[], graph: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const loop = [node];
        while (loop[0] !== start) loop.unshift(previous.get(loop[0]!)!);
        return [...loop, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [];
}
