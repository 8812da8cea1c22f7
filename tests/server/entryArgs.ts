/**
 * node's arguments that run a server entry in a process of a test's own: its bundle, built once per
 * run (tests/server/bundleSetup.ts), else as the server itself would start it (`nodeArgs`).
 */
import path from 'node:path';
import { inject } from 'vitest';
import { bundleName, nodeArgs, type ServerEntry } from '../../server/entries';

export function entryArgs(entry: ServerEntry): string[] {
  const bundles = inject('serverBundle');
  return bundles ? [path.join(bundles, bundleName(entry))] : nodeArgs(entry);
}
