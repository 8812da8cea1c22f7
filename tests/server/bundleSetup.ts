/**
 * Bundles the server's entries once per run, as `npm run build:server` does, for the suites that
 * start a server, its worker or a command-line tool as a process of its own: run from the bundle,
 * such a process starts without compiling the sources again, nor does the worker it starts (D203).
 * Beside dist/server, so the bundles find the packages and the files they read as it does.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildServer } from '../../scripts/buildServer';
import { oncePerRun } from './oncePerRun';

declare module 'vitest' {
  export interface ProvidedContext {
    serverBundle: string;
  }
}

async function bundle(): Promise<string> {
  const outdir = path.resolve('dist', `tests-server-${process.pid}`);
  await buildServer(outdir);
  return outdir;
}

export default async function setup(project: TestProject) {
  const { value: outdir, teardown } = await oncePerRun('server bundle', bundle, (dir) =>
    rm(dir, { recursive: true, force: true }),
  );
  project.provide('serverBundle', outdir);
  return teardown;
}
