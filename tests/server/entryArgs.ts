/**
 * node's arguments that run a server entry in a process of a test's own: its bundle, built once per
 * run (tests/server/bundleSetup.ts), else its source through tsx as in development.
 */
import path from 'node:path';
import { inject } from 'vitest';
import { bundleName, type ServerEntry } from '../../server/entries';

export function entryArgs(entry: ServerEntry): string[] {
  const bundles = inject('serverBundle');
  return bundles ? [path.join(bundles, bundleName(entry))] : ['--import', 'tsx', entry];
}
