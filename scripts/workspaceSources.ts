/**
 * The repository imports runtime/ by its folder (`../../runtime`). Since the folder is a package with
 * its own `exports` (D95), Vite would resolve that import to the built dist/; this plugin keeps it
 * on the sources, so the app and the tests never read a missing or stale build.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

export function workspaceSources(root: string): Plugin {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    workspaces: string[];
  };
  const folders = manifest.workspaces.map((folder) => path.join(root, folder));
  return {
    name: 'workspace-sources',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.')) return null;
      const target = path.resolve(path.dirname(importer), source);
      if (!folders.includes(target)) return null;
      const index = ['index.ts', 'index.tsx']
        .map((file) => path.join(target, file))
        .find(existsSync);
      return index ?? null;
    },
  };
}
