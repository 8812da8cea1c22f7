import { readdirSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * ESLint without types: a virtual file is in no TypeScript project, and the zones need none, so the
 * rules that need them are off.
 */
const untypedEslint = () =>
  new ESLint({
    // A shared folder may hold no script (src/styles).
    errorOnUnmatchedPattern: false,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
      },
    },
  });

/** Lints a virtual file at `filePath` (repo-relative) and returns the rule ids that fired. */
async function rulesFired(filePath: string, code: string): Promise<string[]> {
  const [result] = await untypedEslint().lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

/** The rules fired by a file that imports `x` from `from` and uses it. */
const rulesFiredOnImport = (filePath: string, from: string) =>
  rulesFired(filePath, `import { x } from '${from}';\nexport const y = x;\n`);

/** Each `[file, from]` import is refused by a zone (import-x/no-restricted-paths). */
async function expectZonesRefuse(imports: readonly (readonly [string, string])[]): Promise<void> {
  for (const [file, from] of imports)
    expect(await rulesFiredOnImport(file, from), `${file} -> ${from}`).toContain(
      'import-x/no-restricted-paths',
    );
}

describe('import zones of ARCHITECTURE.md (enforced by ESLint)', () => {
  it('forbid the runtime to import anything else of the repo', async () => {
    expect(
      await rulesFired(
        'runtime/virtual.ts',
        "import { messages } from '../definitions/messages';\nexport const m = messages;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
  });

  it('forbid the runtime Node built-ins and UI frameworks', async () => {
    const fired = await rulesFired(
      'runtime/virtual.ts',
      "import { readFileSync } from 'node:fs';\nimport { useState } from 'react';\nexport const f = [readFileSync, useState];\n",
    );
    expect(fired).toEqual(
      expect.arrayContaining(['import-x/no-nodejs-modules', 'no-restricted-imports']),
    );
  });

  it('forbid definitions/ to import the app', async () => {
    expect(
      await rulesFiredOnImport('definitions/virtual.ts', '../tests/fixtures/miniDefinition'),
    ).toContain('import-x/no-restricted-paths');
  });

  it('allow definitions/ to import the runtime', async () => {
    expect(
      await rulesFired(
        'definitions/virtual.ts',
        "import { BLANK } from '../runtime';\nexport const b = BLANK;\n",
      ),
    ).toEqual([]);
  });

  it('keep the definitions out of the app: src/ imports their types only (D143)', async () => {
    for (const from of ['../definitions', '../definitions/content'])
      expect(await rulesFiredOnImport('src/virtual.ts', from), from).toContain(
        '@typescript-eslint/no-restricted-imports',
      );
    expect(
      await rulesFired(
        'src/virtual.ts',
        "import type { InstitutionFile } from '../definitions/institutionFile';\nexport type F = InstitutionFile;\n",
      ),
    ).toEqual([]);
  });

  it('forbid the packaged renderers to import the app or the server', async () => {
    for (const from of ['../../src/api/client', '../../server/app'])
      expect(await rulesFiredOnImport('renderers/react/virtual.ts', from), from).toContain(
        'import-x/no-restricted-paths',
      );
  });

  it('let an example reach the packages by name only, never by a repository path', async () => {
    const file = 'examples/pet-registration/src/virtual.ts';
    expect(
      await rulesFired(
        file,
        "import { BLANK } from '../../../runtime';\nexport const b = BLANK;\n",
      ),
    ).toContain('import-x/no-relative-packages');
    expect(
      await rulesFired(
        file,
        "import { BLANK } from '@admission-platform/form-runtime';\nexport const b = BLANK;\n",
      ),
    ).toEqual([]);
  });

  it('keep the compiled model inside the runtime: others import its public entry only (D175)', async () => {
    await expectZonesRefuse([
      ['src/features/virtual.ts', '../../runtime/internal'],
      ['server/virtual.ts', '../runtime/model'],
      ['renderers/react/virtual.ts', '../../runtime/compiler'],
    ]);
    expect(
      await rulesFired(
        'server/virtual.ts',
        "import { labelOf } from '../runtime';\nexport const l = labelOf;\n",
      ),
    ).toEqual([]);
  });

  it('hold the zones for imports written with the aliases of package.json (D184)', async () => {
    await expectZonesRefuse([
      ['server/virtual.ts', '#src/api/client.ts'],
      ['server/application/virtual.ts', '#renderers/interactive/index.ts'],
      ['src/features/virtual.ts', '#server/app.ts'],
      ['contract/virtual.ts', '#renderers/print/render.ts'],
    ]);
    expect(
      await rulesFiredOnImport('src/features/staff/virtual.ts', '#definitions/content.ts'),
    ).toContain('@typescript-eslint/no-restricted-imports');
    expect(
      await rulesFired(
        'src/features/staff/virtual.ts',
        "import type { InstitutionFile } from '#definitions/institutionFile.ts';\nimport { pdfMessages } from '#contract';\nexport type F = InstitutionFile;\nexport const m = pdfMessages;\n",
      ),
    ).toEqual([]);
  });

  it('keep the aliases out of the published packages, whose builds resolve relative paths only (D184)', async () => {
    for (const file of ['runtime/virtual.ts', 'renderers/react/virtual.ts'])
      expect(await rulesFiredOnImport(file, '#contract'), file).toContain('no-restricted-imports');
  });

  it('refuse a relative import that climbs three folders: the aliases name the top-level folder (D184)', async () => {
    for (const file of ['src/features/staff/pages/virtual.ts', 'tests/server/fixtures/virtual.ts'])
      expect(await rulesFired(file, "export { x } from '../../../../contract';\n"), file).toContain(
        'no-restricted-imports',
      );
    expect(await rulesFiredOnImport('src/features/staff/virtual.ts', '../../api/client')).toEqual(
      [],
    );
  });

  it('forbid a feature to import another feature, by relative path or alias (D188)', async () => {
    await expectZonesRefuse([
      ['src/features/staff/virtual.ts', '../application/CompletionPage'],
      ['src/features/staff/virtual.ts', '#src/features/application/CompletionPage.tsx'],
      ['src/features/application/virtual.ts', '../staff/ui'],
      ['src/features/application/virtual.ts', '#src/features/staff/ui.tsx'],
    ]);
    for (const from of ['./ui', '#src/components/usePrintStylesheet.ts'])
      expect(await rulesFiredOnImport('src/features/staff/virtual.ts', from), from).toEqual([]);
  });

  describe("keep the client's layers one way: the app composes features, which import shared code (D202)", () => {
    const srcEntries = readdirSync(`${ROOT}/src`, { withFileTypes: true });
    // Read from the disk as eslint.config.js does, so a new shared folder is checked here too.
    const sharedFolders = srcEntries
      .filter((entry) => entry.isDirectory() && entry.name !== 'features')
      .map((entry) => `src/${entry.name}`);

    it('forbid every shared folder to import a feature or the app, by relative path or alias', async () => {
      expect(sharedFolders).toEqual(expect.arrayContaining(['src/chrome', 'src/session']));
      for (const folder of sharedFolders)
        await expectZonesRefuse([
          [`${folder}/virtual.ts`, '../features/account/accountText'],
          [`${folder}/virtual.ts`, '#src/features/application/api/profile.ts'],
          [`${folder}/virtual.ts`, '../router'],
          [`${folder}/virtual.ts`, '#src/AppShell.tsx'],
        ]);
      await expectZonesRefuse([
        ['src/components/form/virtual.ts', '../../features/staff/ui'],
        ['src/components/form/virtual.ts', '#src/features/staff/ui.tsx'],
      ]);
    });

    it('forbid a feature to import the app', async () => {
      await expectZonesRefuse([
        ['src/features/account/virtual.ts', '../../AppShell'],
        ['src/features/staff/pages/virtual.ts', '#src/router.tsx'],
      ]);
    });

    it('let the app import features and shared code, and shared code import shared code', async () => {
      for (const [file, from] of [
        ['src/router.tsx', './features/account/LoginCard'],
        ['src/AppShell.tsx', '#src/features/application/api/profile.ts'],
        ['src/chrome/virtual.ts', '../session/loggedIn'],
        ['src/session/virtual.ts', '#src/api/client.ts'],
      ])
        expect(await rulesFiredOnImport(file!, from!), `${file} -> ${from}`).toEqual([]);
    });

    it('find no file of a shared folder importing a feature or the app', async () => {
      const results = await untypedEslint().lintFiles(sharedFolders);
      expect(results.length).toBeGreaterThan(40);
      const breaches = results.flatMap((result) =>
        result.messages
          .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
          .map(
            (message) => `${relative(ROOT, result.filePath)}:${message.line} ${message.message}`,
          ),
      );
      expect(breaches).toEqual([]);
    }, 60_000);
  });

  it('let the server reach a slice through its index.ts only, by relative path or alias (D187)', async () => {
    await expectZonesRefuse([
      ['server/staff/virtual.ts', '../account/accounts'],
      ['server/staff/virtual.ts', '#server/account/accounts.ts'],
      ['server/documents/virtual.ts', '../application/openApplication'],
      ['server/jobs/virtual.ts', '../staff/pdfBundles'],
      ['server/jobs/virtual.ts', '#server/staff/pdfBundles.ts'],
    ]);
    for (const [file, from] of [
      ['server/staff/virtual.ts', '../account'],
      ['server/staff/virtual.ts', '../account/index.ts'],
      ['server/staff/virtual.ts', '#server/account/index.ts'],
      ['server/platform/virtual.ts', '#server/staff/index.ts'],
      ['server/staff/virtual.ts', './pdfBundles'],
    ])
      expect(await rulesFiredOnImport(file!, from!), `${file} -> ${from}`).toEqual([]);
  });

  it("keep the server's imports one way, down server/layers.json: no slice in the infrastructure (D204)", async () => {
    await expectZonesRefuse([
      ['server/http/virtual.ts', '../account'],
      ['server/mail/virtual.ts', '#server/staff/index.ts'],
      ['server/jobs/virtual.ts', '../jobKinds'],
      ['server/crypto/virtual.ts', '../tenants'],
      ['server/db/virtual.ts', '#server/app.ts'],
      ['server/account/virtual.ts', '../staff'],
    ]);
    for (const [file, from] of [
      ['server/account/virtual.ts', '../http/context'],
      ['server/jobKinds.ts', './staff'],
      ['server/mail/virtual.ts', '#server/crypto/secretBox.ts'],
    ])
      expect(await rulesFiredOnImport(file!, from!), `${file} -> ${from}`).toEqual([]);
  });

  it('refuse a loop of server files (import-x/no-cycle, D204)', async () => {
    // server/documents/routes.ts imports ./state: state importing the routes back closes a loop.
    expect(
      await rulesFired(
        'server/documents/state.ts',
        "import { documentRoutes } from './routes';\nexport const routes = documentRoutes;\n",
      ),
    ).toContain('import-x/no-cycle');
    expect(await rulesFiredOnImport('server/documents/state.ts', './checks')).toEqual([]);
  });

  it('forbid eval and new Function everywhere (strict CSP)', async () => {
    const fired = await rulesFired(
      'runtime/virtual.ts',
      "export const f = new Function('return 1');\n",
    );
    expect(fired).toContain('no-restricted-syntax');
  });
});
