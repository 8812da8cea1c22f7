/**
 * `npm run build:server` (D141): one bundle per server entry, the files the server reads beside it,
 * and a build that fails when the server imports a package a production install would not have.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer, packageOf, undeclaredImports } from '../../scripts/buildServer';
import { bundleName, SERVER_ENTRIES } from '../../server/entries';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A metafile whose one bundle imports `paths` from outside. */
const importing = (...paths: string[]): Metafile => ({
  inputs: {},
  outputs: {
    'dist/server/main.js': {
      bytes: 1,
      inputs: {},
      exports: [],
      imports: paths.map((p) => ({ path: p, kind: 'import-statement', external: true })),
    },
  },
});

describe('the server build', () => {
  it('bundles every entry and copies the migrations and sample lists beside the bundles', async () => {
    const outdir = await mkdtemp(path.join(os.tmpdir(), 'admission-build-'));
    dirs.push(outdir);
    await buildServer(outdir);
    for (const entry of SERVER_ENTRIES)
      expect(existsSync(path.join(outdir, bundleName(entry))), entry).toBe(true);
    expect(readdirSync(path.join(outdir, 'migrations')).sort()).toEqual(
      readdirSync('server/db/migrations').sort(),
    );
    expect(readdirSync(path.join(outdir, 'sample')).sort()).toEqual(
      readdirSync('server/lookup/sample').sort(),
    );
  }, 60_000);

  it('names the imported packages that are not runtime dependencies', () => {
    const dependencies = ['fastify', '@aws-sdk/client-s3', 'drizzle-orm'];
    const metafile = importing(
      'node:fs',
      'crypto',
      'fastify',
      'drizzle-orm/pg-core',
      '@aws-sdk/client-s3',
      'tsx/esm/api',
      '@playwright/test/reporter',
      'vite',
    );
    expect(undeclaredImports(metafile, dependencies)).toEqual(['@playwright/test', 'tsx', 'vite']);
    expect(packageOf('@streamparser/json/tokenizer.js')).toBe('@streamparser/json');
  });
});
