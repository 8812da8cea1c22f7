// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The one-way import rule of ARCHITECTURE.md, enforced per folder.
 * `target` may not import from `from`.
 */
const zones = [
  {
    target: './runtime',
    from: [
      './contract',
      './definitions',
      './renderers',
      './src',
      './server',
      './tests',
      './scripts',
    ],
    message: 'runtime/ imports nothing else of the repo (ARCHITECTURE.md).',
  },
  {
    target: ['./definitions', './contract'],
    from: ['./renderers', './src', './server', './tests', './scripts'],
    message: 'definitions/ and contract/ may import runtime/ only.',
  },
  {
    target: './renderers',
    from: ['./contract', './definitions', './src', './server', './tests', './scripts'],
    message: 'renderers/ may import runtime/ only.',
  },
  {
    target: './src',
    from: ['./server'],
    message: 'src/ may import anything but server/.',
  },
  {
    target: './server',
    from: ['./src', './renderers/interactive', './tests'],
    message: 'server/ may import runtime/, definitions/, contract/ and renderers/print/ only.',
  },
  {
    // D175: the compiled model is the runtime's own; the rest of the repo asks runtime/index.ts.
    target: [
      './src',
      './server',
      './renderers',
      './definitions',
      './contract',
      './scripts',
      './examples',
    ],
    from: './runtime',
    except: ['./index.ts'],
    message:
      'Outside runtime/ and tests/, import the runtime by its public entry (runtime/index.ts) only (D175).',
  },
];

/**
 * The client's features do not import each other (D188): shared code moves down to src/components
 * or src/chrome, and the router or AppShell composes features. One zone per feature folder, so a
 * new folder is covered without editing this file.
 */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The cross-feature imports that still exist, importer → imported feature → its files (relative
 * to that feature's folder). None is left; nothing is added here.
 */
const crossFeatureEdges = {};

const featureZones = features.flatMap((feature) => {
  const edges = crossFeatureEdges[feature] ?? {};
  const others = features.filter((other) => other !== feature);
  const message = `A feature does not import another feature (D188): move shared code down to src/components, or let the router compose them.`;
  const target = `./src/features/${feature}`;
  const forbidden = others
    .filter((other) => !edges[other])
    .map((other) => `./src/features/${other}`);
  return [
    ...(forbidden.length > 0 ? [{ target, from: forbidden, message }] : []),
    ...Object.entries(edges).map(([other, except]) => ({
      target,
      from: `./src/features/${other}`,
      except,
      message,
    })),
  ];
});

/**
 * The client's layers (D202, bulletproof-react's rule): src/'s own files (main.tsx, router.tsx,
 * AppShell.tsx, CompletionScreen.tsx) are the app, which composes the features; every other folder
 * of src/ is shared code, which the app and the features import and which imports neither. Both
 * read from the disk, so a new folder or root file is covered without editing this file.
 */
const srcEntries = readdirSync(new URL('./src', import.meta.url), { withFileTypes: true });
const appFiles = srcEntries.filter((entry) => entry.isFile()).map((entry) => `./src/${entry.name}`);
const sharedFolders = srcEntries
  .filter((entry) => entry.isDirectory() && entry.name !== 'features')
  .map((entry) => `./src/${entry.name}`);

const layerZones = [
  {
    target: sharedFolders,
    from: ['./src/features', ...appFiles],
    message:
      "Shared client code imports no feature and not the app (D202): move the feature's piece down, or let the app pass it as a prop.",
  },
  {
    target: './src/features',
    from: appFiles,
    message:
      'A feature does not import the app (D202): the router and AppShell compose the features.',
  },
];

/**
 * The server's slices meet only through each other's `index.ts` (D187): a slice's inner files are
 * its own, and every other file of server/ (another slice, app.ts, the jobs, the command line)
 * imports what the slice's index.ts re-exports. server/slices.json lists the slices, for this file
 * and tests/architecture/serverSlices.test.ts alike.
 */
const serverSlices = JSON.parse(
  readFileSync(new URL('./server/slices.json', import.meta.url), 'utf8'),
);
const serverEntries = readdirSync(new URL('./server', import.meta.url));

const sliceZones = serverSlices.map((slice) => ({
  target: serverEntries.filter((entry) => entry !== slice).map((entry) => `./server/${entry}`),
  from: `./server/${slice}`,
  except: ['./index.ts'],
  message: `Import the ${slice} slice through its index.ts (server/${slice}/index.ts; D187): what it re-exports is what it offers.`,
}));

/**
 * The server's imports run one way (D204): server/layers.json orders every folder and root file of
 * server/ from the composition roots (app.ts, worker.ts, jobKinds.ts, the command line) through the
 * features to the shared infrastructure, and a file may import only what is listed below its own
 * node. One zone per node, refusing every node above it, so the infrastructure imports no slice
 * and no composition root. tests/architecture/serverImports.test.ts measures the same graph,
 * type-only imports included.
 */
const serverLayers = JSON.parse(
  readFileSync(new URL('./server/layers.json', import.meta.url), 'utf8'),
);
const serverOrder = [
  ...serverLayers.compositionRoots,
  ...serverLayers.features,
  ...serverLayers.infrastructure,
];
const infrastructure = new Set(serverLayers.infrastructure);
const layerOrderZones = serverOrder.flatMap((node, rank) => {
  const above = serverOrder.slice(0, rank);
  if (above.length === 0) return [];
  return [
    {
      target: `./server/${node}`,
      from: above.map((upper) => `./server/${upper}`),
      message: infrastructure.has(node)
        ? `server/${node} is shared infrastructure: it imports no slice and no composition root (D204). Invert with an interface it owns, passed in by app.ts or worker.ts, or move the shared piece down.`
        : `server/${node} may import only what server/layers.json lists below it (D204): move the shared piece down, or let the composition root pass it in.`,
    },
  ];
});

/**
 * The repository's own homes are reached by the package.json `imports` aliases (`#contract`,
 * `#src/api/client.ts`; D184), never by a relative path that climbs three folders or more.
 */
const noClimbing = {
  regex: String.raw`^(\.\./){3,}`,
  message: "Import another top-level folder by its alias (package.json `imports`, '#src/…'; D184).",
};

/**
 * The published packages (runtime/, renderers/) have package.json files of their own, without the
 * repository's aliases, and their build keeps only relative imports inside the package (D95, D184).
 */
const noAliases = {
  regex: '^#',
  message: 'runtime/ and renderers/ are published packages: they import by relative path (D184).',
};

/**
 * `no-restricted-imports` for a folder, refusing climbing paths and `extra`: flat config keeps only
 * a rule's last setting, so each folder's list is whole.
 */
const restrictedImports = (...extra) => ['error', { patterns: [noClimbing, ...extra] }];

/** Packages the framework-agnostic runtime must never reach for. */
const runtimeForbiddenPackages = [
  'react',
  'react-dom',
  'react-dom/*',
  '@radix-ui/*',
  '@tanstack/*',
  'fastify',
  '@fastify/*',
  'drizzle-orm',
  'drizzle-orm/*',
];
const frameworkAgnostic = {
  group: runtimeForbiddenPackages,
  message: 'The runtime and the definition stay framework-agnostic.',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '**/dist/',
      'data/',
      'coverage/',
      'tests/fixtures/lint/',
      'examples/*/build/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [...zones, ...featureZones, ...layerZones, ...sliceZones, ...layerOrderZones],
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': restrictedImports(),
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='eval']",
          message: 'No eval: the product runs under a strict CSP.',
        },
        {
          selector: "NewExpression[callee.name='Function']",
          message: 'No new Function: the product runs under a strict CSP.',
        },
      ],
    },
  },
  {
    // A promise nobody awaits loses its rejection: an await, a .catch, or `void` with a reason.
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['runtime/**/*.ts', 'definitions/**/*.ts'],
    rules: {
      'import-x/no-nodejs-modules': 'error',
      'no-restricted-imports': restrictedImports(frameworkAgnostic),
    },
  },
  {
    files: ['runtime/**/*.ts'],
    rules: { 'no-restricted-imports': restrictedImports(frameworkAgnostic, noAliases) },
  },
  {
    files: ['renderers/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': restrictedImports(noAliases) },
  },
  {
    // The app reads its institution at run time (src/tenant/tenantData.ts; D143): the definitions'
    // values (the embedded default's words and form) never reach the bundle, only their types.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...[
              { group: ['**/definitions', '**/definitions/**'] },
              { regex: '^#definitions/' },
            ].map((pattern) => ({
              ...pattern,
              allowTypeImports: true,
              message:
                'src/ reads its institution from the page (src/tenant/tenantData.ts); it imports definitions/ for types only.',
            })),
          ],
        },
      ],
    },
  },
  {
    // No loop of server files (D204); packages are not followed, which keeps the rule fast. The rule
    // walks only files of these extensions, parsed by this parser: without them it sees no .ts file.
    files: ['server/**/*.ts'],
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // An example is an integrator's app: it reaches the packages by name, never by a repository path.
    files: ['examples/**/*.{ts,tsx}'],
    rules: { 'import-x/no-relative-packages': 'error' },
  },
  {
    // Tests break fixtures on purpose (an unknown kind, a bad operator) through untyped copies.
    files: ['tests/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'renderers/**/*.{ts,tsx}', 'tests/**/*.tsx', 'examples/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
