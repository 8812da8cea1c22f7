/**
 * `npm run build:server` (part of `npm run build`): bundles each server entry (server/entries.ts)
 * into dist/server with esbuild, our own code inlined and every package left to node_modules, and
 * copies beside the bundles the files the server reads at run time (D141). Fails when a bundle
 * imports a package that is not among the runtime `dependencies`: `npm prune --omit=dev` would
 * remove it.
 *
 * Usage: `tsx scripts/buildServer.ts [outdir]` (default dist/server; a test builds elsewhere).
 */
import { cpSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_DIR, bundleName, SERVER_ENTRIES } from '../server/entries';

/** The package being built: where npm runs its scripts. */
const ROOT = process.cwd();

/**
 * Folders a module reads next to itself (`new URL('./<name>', import.meta.url)`): inlined into a
 * bundle, that module's URL is the bundle's, so each is copied beside the bundles under its name.
 */
const ASSETS = ['server/db/migrations', 'server/lookup/sample'] as const;

/** `@scope/name/sub.js` → `@scope/name`; `name/sub` → `name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** The packages the bundles import that are neither Node's own nor runtime dependencies. */
export function undeclaredImports(metafile: Metafile, dependencies: readonly string[]): string[] {
  const declared = new Set(dependencies);
  const imported = Object.values(metafile.outputs).flatMap((output) =>
    output.imports.filter((i) => i.external).map((i) => i.path),
  );
  const missing = imported
    .filter((specifier) => !specifier.startsWith('node:') && !builtinModules.includes(specifier))
    .map(packageOf)
    .filter((name) => !declared.has(name));
  return [...new Set(missing)].sort();
}

export async function buildServer(outdir = path.join(ROOT, BUNDLE_DIR)): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(
      SERVER_ENTRIES.map((entry) => [bundleName(entry).replace(/\.js$/, ''), entry]),
    ),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Packages stay in node_modules, resolved from dist/server upward as from the sources.
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
  });
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const missing = undeclaredImports(metafile, Object.keys(manifest.dependencies));
  if (missing.length > 0)
    throw new Error(
      `The server imports ${missing.join(', ')}, not in package.json's dependencies: ` +
        'a production install (npm prune --omit=dev) would not have it.',
    );
  for (const asset of ASSETS)
    cpSync(path.join(ROOT, asset), path.join(outdir, path.basename(asset)), { recursive: true });
}

// Run as a script (argv[1] may reach this file through a symbolic link).
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const outdir = process.argv[2];
  await buildServer(outdir ? path.resolve(outdir) : undefined).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
