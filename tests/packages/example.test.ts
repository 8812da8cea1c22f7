/**
 * The packages as an integrator gets them (D95): both workspaces built and packed, the example app
 * of examples/pet-registration installed from the tarballs in a copy outside the workspaces,
 * type-checked against the packed declarations and run. The app's other packages (React, its types,
 * TypeScript) resolve from the repository's node_modules, so the install needs no network.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../../scripts/buildPackage';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const WORK = path.join(ROOT, 'node_modules/.cache/packages-example');
const APP = path.join(WORK, 'app');
const PACKAGES = ['runtime', 'renderers'] as const;

interface PackResult {
  readonly name: string;
  readonly filename: string;
  readonly size: number;
  readonly unpackedSize: number;
  readonly files: readonly { readonly path: string }[];
}

interface Manifest {
  readonly exports: Record<string, string | Record<string, string>>;
}

let packs: PackResult[] = [];
let program: ts.Program;
const seconds: Record<string, number> = {};

async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  seconds[step] = Math.round((performance.now() - start) / 100) / 10;
  return result;
}

/** The app as a user would copy it, without its own node_modules or build output. */
function copyExample(): void {
  cpSync(path.join(ROOT, 'examples/pet-registration'), APP, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|build)$/.test(source),
  });
  // Only the tarballs are installed here; the rest resolves from the repository (see above).
  const manifest = JSON.parse(readFileSync(path.join(APP, 'package.json'), 'utf8'));
  delete manifest.dependencies;
  delete manifest.devDependencies;
  writeFileSync(path.join(APP, 'package.json'), JSON.stringify(manifest, null, 2));
}

/**
 * The example's `tsc -p tsconfig.json`, except that the packed declarations are checked too (the app
 * skips library checks, as apps do). Checking is lazy, so React's and Node's types are read only as
 * far as the app and the packages use them.
 */
function typeCheckAndEmit(): readonly ts.Diagnostic[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(APP, 'tsconfig.json'),
    { skipLibCheck: false },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!parsed) throw new Error('examples/pet-registration/tsconfig.json does not parse');
  program = ts.createProgram(parsed.fileNames, parsed.options);
  const checked = program
    .getSourceFiles()
    .filter(
      (file) =>
        file.fileName.startsWith(path.join(APP, 'src')) ||
        file.fileName.startsWith(path.join(APP, 'node_modules/@northfield')),
    );
  return [
    ...parsed.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checked.flatMap((file) => [
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    ]),
    // One file at a time: a whole-program emit would check every library file after all.
    ...checked
      .filter((file) => file.fileName.startsWith(path.join(APP, 'src')))
      .flatMap((file) => program.emit(file).diagnostics),
  ];
}

const describeDiagnostics = (diagnostics: readonly ts.Diagnostic[]): string[] =>
  diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));

let diagnostics: readonly ts.Diagnostic[] = [];
let checkOutput = '';

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(path.join(WORK, 'packs'), { recursive: true });

  await timed('build', async () => {
    for (const dir of PACKAGES) await buildPackage(path.join(ROOT, dir));
  });
  const packed = await timed('pack', () =>
    run(
      'npm',
      [
        'pack',
        ...PACKAGES.flatMap((dir) => ['--workspace', dir]),
        '--pack-destination',
        path.join(WORK, 'packs'),
        '--ignore-scripts',
        '--json',
      ],
      { cwd: ROOT },
    ),
  );
  packs = JSON.parse(packed.stdout) as PackResult[];

  copyExample();
  await timed('install', () =>
    run(
      'npm',
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--legacy-peer-deps',
        '--offline',
        '--no-audit',
        '--no-fund',
        ...packs.map((pack) => path.join(WORK, 'packs', pack.filename)),
        // The runtime's one dependency, linked from the repository instead of fetched.
        path.join(ROOT, 'node_modules/zod'),
      ],
      { cwd: APP },
    ),
  );

  diagnostics = await timed('typecheck', async () => typeCheckAndEmit());
  checkOutput = await timed('check', async () => {
    const { stdout } = await run(process.execPath, ['build/check.js'], { cwd: APP }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }),
    );
    return stdout;
  });
  console.info(
    `packages example: ${JSON.stringify(seconds)} s; ` +
      packs.map((p) => `${p.name} ${p.size} B packed, ${p.unpackedSize} B unpacked`).join('; '),
  );
}, 180_000);

describe('the packages, packed and installed in an app of their own', () => {
  it('pack only their built files: no sources, tests or source maps', () => {
    expect(packs.map((pack) => pack.name)).toEqual([
      '@admission-platform/form-runtime',
      '@admission-platform/form-renderers',
    ]);
    for (const [index, dir] of PACKAGES.entries()) {
      const files = (packs[index]?.files ?? []).map((file) => file.path);
      for (const file of files)
        expect(file, `${dir}: ${file}`).toMatch(
          /^(package\.json|README\.md|dist\/.+\.(js|d\.ts))$/,
        );
      const manifest = JSON.parse(
        readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8'),
      ) as Manifest;
      for (const target of Object.values(manifest.exports)) {
        for (const file of typeof target === 'string' ? [target] : Object.values(target))
          expect(files, `${dir} exports ${file}`).toContain(file.replace(/^\.\//, ''));
      }
    }
  });

  it('ship production code: the JSX runtime, not its development build', () => {
    const renderers = path.join(APP, 'node_modules/@admission-platform/form-renderers');
    const code = (packs[1]?.files ?? [])
      .filter((file) => file.path.endsWith('.js'))
      .map((file) => readFileSync(path.join(renderers, file.path), 'utf8'))
      .join('\n');
    expect(code).toContain('react/jsx-runtime');
    expect(code).not.toContain('jsx-dev-runtime');
  });

  it('type-check the example against the packed declarations, not the repository', () => {
    expect(describeDiagnostics(diagnostics)).toEqual([]);
    const read = program.getSourceFiles().map((file) => file.fileName);
    expect(read).toContain(
      path.join(APP, 'node_modules/@admission-platform/form-runtime/dist/index.d.ts'),
    );
    expect(read).toContain(
      path.join(APP, 'node_modules/@admission-platform/form-renderers/dist/registry.d.ts'),
    );
    for (const dir of PACKAGES)
      expect(read.filter((file) => file.startsWith(path.join(ROOT, dir) + path.sep))).toEqual([]);
  });

  it('draw and validate the example form with its own renderers and the print set', () => {
    expect(checkOutput).not.toMatch(/^not ok/m);
    expect(checkOutput.match(/^ok - /gm)).toHaveLength(5);
    expect(checkOutput).toContain(
      'ok - a missing required answer gives the definition’s message, drawn by the app’s renderers',
    );
    expect(checkOutput).toContain('ok - a hidden question is not drawn and not required');
    expect(checkOutput).toContain('ok - hiding a section clears the answers it lists');
    expect(checkOutput).toContain('ok - the print set renders the answers as text');
  });

  it('leave the repository on the sources, even with the packages built', async () => {
    // Loaded after the build: by folder (`../../runtime`, the repository's way) and by name.
    const byFolder = await import('../../runtime');
    const byName = await import('@admission-platform/form-runtime');
    const source = await import('../../runtime/load');
    expect(byFolder.loadDefinition).toBe(source.loadDefinition);
    expect(byName.loadDefinition).toBe(source.loadDefinition);
  });
});
