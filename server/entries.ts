/**
 * The server's entry points (D141). In development and tests they run from their TypeScript sources
 * through tsx; `npm run build` bundles each into dist/server (scripts/buildServer.ts), and a bundled
 * process starts its children (the job worker, the conversion sandbox) from the bundles too, so
 * production needs neither tsx nor any other devDependency.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every entry, from the repository's root: what `npm run build` bundles. */
export const SERVER_ENTRIES = [
  'server/main.ts',
  'server/worker.ts',
  'server/conversion/sandboxWorker.ts',
  'server/cli/staff.ts',
  'server/cli/serviceToken.ts',
  'server/cli/tenant.ts',
  'server/cli/keys.ts',
  'scripts/lookup-import.ts',
] as const;
export type ServerEntry = (typeof SERVER_ENTRIES)[number];

/** Where the bundles go, from the repository's root. */
export const BUNDLE_DIR = 'dist/server';

/** An entry's bundle: its source file's name, with `.js` (scripts/server.mjs follows the same rule). */
export const bundleName = (entry: ServerEntry): string => `${path.basename(entry, '.ts')}.js`;

/** This code runs from a bundle: its module is not TypeScript. */
export const runsBundled = !import.meta.url.endsWith('.ts');

/** The file that runs `entry`: beside this bundle when bundled, else the source. */
export function entryFile(entry: ServerEntry): string {
  // Sources: this module is server/entries.ts. Bundled: it is inlined into a bundle of dist/server.
  const relative = runsBundled ? `./${bundleName(entry)}` : `../${entry}`;
  return fileURLToPath(new URL(relative, import.meta.url));
}

/** node's arguments that run `entry`: a bundle as it is, a source through tsx. */
export function nodeArgs(entry: ServerEntry): string[] {
  return runsBundled ? [entryFile(entry)] : ['--import', 'tsx', entryFile(entry)];
}
