/**
 * Builds one workspace package (runtime/ or renderers/) into its dist/ (D95): ES modules by Vite's
 * library mode, declarations bundled by rollup-plugin-dts. Usage: `tsx scripts/buildPackage.ts DIR`.
 *
 * Everything is derived from the package's own package.json: each `exports` subpath names its entry
 * (`.` is index.ts, `./print` is print.ts or print/index.ts) and its output; dependencies and peers
 * stay outside the bundle; an import that reaches another workspace package's folder becomes an
 * import of that package by name, so the repository's relative imports need no change.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rollup, type Plugin } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { build } from 'vite';
import ts from 'typescript';

interface Manifest {
  readonly name: string;
  readonly exports: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readManifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;

/** `./dist/print/render.js` → `print/render`, the entry's output name. */
function outputName(target: string): string {
  const match = /^\.\/dist\/(.+)\.js$/.exec(target);
  if (!match?.[1]) throw new Error(`export target ${target} is not ./dist/NAME.js`);
  return match[1];
}

/** The source file of an export subpath: `.` → index.ts, `./x` → x.ts or x/index.ts. */
function sourceOf(dir: string, subpath: string): string {
  const base = subpath === '.' ? 'index' : subpath.slice(2);
  const candidates = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  const found = candidates.map((file) => path.join(dir, file)).find((file) => existsSync(file));
  if (!found) throw new Error(`no source for export ${subpath} (tried ${candidates.join(', ')})`);
  return found;
}

/** Output name → source file, for every code export of the package. */
function entriesOf(dir: string, manifest: Manifest): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue; // ./package.json
    const types = target.types;
    const code = target.default;
    if (!code || types !== code.replace(/\.js$/, '.d.ts'))
      throw new Error(`export ${subpath} needs "types" beside its "default" .js`);
    entries[outputName(code)] = sourceOf(dir, subpath);
  }
  return entries;
}

/** The other workspace packages: their folder and name, for imports that cross into them. */
function siblingPackages(dir: string): { readonly dir: string; readonly name: string }[] {
  const workspaces = (
    JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      workspaces: string[];
    }
  ).workspaces;
  return workspaces
    .map((folder) => path.join(ROOT, folder))
    .filter((folder) => folder !== dir)
    .map((folder) => ({ dir: folder, name: readManifest(folder).name }));
}

/**
 * Keeps dependencies, peers and Node built-ins outside the bundle, and turns an import of a sibling
 * package's entry (`../../runtime`) into an import of it by name. Reaching into a sibling's other
 * files is refused: the published package would not have them.
 */
function packageBoundary(dir: string, manifest: Manifest): Plugin {
  const external = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  const siblings = siblingPackages(dir);
  return {
    name: 'package-boundary',
    resolveId(source, importer) {
      if (source.startsWith('node:')) return { id: source, external: true };
      if (external.some((name) => source === name || source.startsWith(`${name}/`)))
        return { id: source, external: true };
      if (!importer || !source.startsWith('.')) return null;
      const target = path.resolve(path.dirname(importer), source);
      const sibling = siblings.find((candidate) => target.startsWith(candidate.dir));
      if (!sibling) return null;
      if (target !== sibling.dir && target !== path.join(sibling.dir, 'index'))
        throw new Error(`${importer} imports ${source}, which ${sibling.name} does not export`);
      if (!external.includes(sibling.name))
        throw new Error(`${manifest.name} imports ${sibling.name} but does not list it`);
      return { id: sibling.name, external: true };
    },
  };
}

export async function buildPackage(dir: string): Promise<void> {
  const manifest = readManifest(dir);
  const entries = entriesOf(dir, manifest);
  const outDir = path.join(dir, 'dist');
  rmSync(outDir, { recursive: true, force: true });

  await build({
    configFile: false,
    root: dir,
    logLevel: 'warn',
    plugins: [{ ...packageBoundary(dir, manifest), enforce: 'pre' }],
    // Production output whatever NODE_ENV says (Vitest sets `test`, which would pick jsxDEV).
    mode: 'production',
    oxc: { jsx: { runtime: 'automatic', development: false } },
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      minify: false,
      copyPublicDir: false,
      lib: { entry: entries, formats: ['es'], fileName: (_format, name) => `${name}.js` },
    },
  });

  const bundle = await rollup({
    input: entries,
    plugins: [
      packageBoundary(dir, manifest),
      // One compiler setting for both packages; the runtime's DOM-free check is tsconfig.runtime.json.
      dts({
        tsconfig: path.join(ROOT, 'tsconfig.base.json'),
        compilerOptions: {
          noEmit: false,
          jsx: ts.JsxEmit.ReactJSX,
          lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
          types: [],
        },
      }),
    ],
  });
  await bundle.write({ dir: outDir, format: 'es', entryFileNames: '[name].d.ts' });
  await bundle.close();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: tsx scripts/buildPackage.ts PACKAGE_DIR');
  await buildPackage(path.resolve(dir));
}
