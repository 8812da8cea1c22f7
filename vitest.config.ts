import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/**
 * The suites by what they need, one part each (`npm run test:unit`, `test:server`, `test:e2e`);
 * `npm test` runs them all. Every test file belongs to exactly one of the three
 * (tests/architecture/testProjects.test.ts); a part's timed files are its `-timed` project.
 */
export const TEST_PROJECTS = {
  /** No database, server or browser: they pay none of the global setup's migrations. */
  unit: ['tests/{runtime,definitions,renderers,src,architecture}/**/*.test.{ts,tsx}'],
  /** The server on PGlite (and PostgreSQL when TEST_DATABASE_URL is set), its processes, the packages. */
  server: ['tests/{server,security,reliability,faults,packages,production}/**/*.test.{ts,tsx}'],
  /** The applicant's and staff's pages in Chromium against a real server. */
  e2e: ['tests/e2e/**/*.test.{ts,tsx}'],
};

/**
 * The suites that drive a browser, run a second time on the Chromium inside @sparticuz/chromium
 * (`CHROMIUM_PATH=bundled`) even where Debian's is installed, so a machine without a system browser
 * is known to work (D83): printing, its isolation and limits, the application PDF, conversion,
 * the end-to-end first load and PDF download, and the PDF's text fidelity (its fonts, D135).
 */
export const BUNDLED_BROWSER_SUITES = [
  'tests/security/printBrowser.test.ts',
  'tests/security/rendering.test.ts',
  'tests/server/applicationPdf.test.ts',
  'tests/e2e/firstLoad.test.ts',
  'tests/e2e/pdf.test.ts',
  'tests/reliability/textFidelity.test.ts',
];

/**
 * Files whose assertions time the machine itself (a bound on a shutdown, a wait behind another
 * applicant's conversion, a print or a health check under a burst, the idle and autosave clocks, the
 * tab switch): they run one at a time after the rest, as every file ran before D163, so a neighbour's
 * work never eats their margins. Each stays in its part of the suite (`<part>-timed`).
 */
export const TIMED_SUITES = {
  server: [
    'tests/server/productProcess.test.ts',
    'tests/server/shutdown.test.ts',
    'tests/server/queue.lanes.test.ts',
    'tests/security/fairness.test.ts',
    'tests/security/conversion.test.ts',
    'tests/security/burst.test.ts',
    'tests/security/rendering.test.ts',
    'tests/security/unreadBody.test.ts',
    'tests/faults/database.faults.test.ts',
  ],
  e2e: ['tests/e2e/idle.test.ts', 'tests/e2e/returningTabs.test.ts', 'tests/e2e/autosave.test.ts'],
} as const;

/**
 * Files at once everywhere else: most server and browser files wait on PostgreSQL, Chromium or a
 * child process, so two overlap even on CI's two cores (D163).
 */
const WORKERS = Math.max(2, availableParallelism() - 1);

/** Migrates PGlite once per project, and the PostgreSQL template when TEST_DATABASE_URL is set. */
const databaseSetup = ['tests/server/globalSetup.ts'];

export default mergeConfig(
  viteConfig,
  defineConfig({
    // Tests that import the workspace packages by name run on their sources (tsconfig.json paths).
    resolve: { tsconfigPaths: true },
    test: {
      // The tenant data the server inlines into each page, for the jsdom suites (D143).
      setupFiles: ['tests/setup/tenantPage.ts'],
      testTimeout: 20_000,
      hookTimeout: 60_000,
      reporters: ['default'],
      // Projects of one group share its workers; those with one worker run after, a file at a time.
      projects: [
        { extends: true, test: { name: 'unit', include: TEST_PROJECTS.unit, maxWorkers: WORKERS } },
        ...(['server', 'e2e'] as const).flatMap((part) => [
          {
            extends: true as const,
            test: {
              name: part,
              include: TEST_PROJECTS[part],
              exclude: [...configDefaults.exclude, ...TIMED_SUITES[part]],
              globalSetup: databaseSetup,
              maxWorkers: WORKERS,
            },
          },
          {
            extends: true as const,
            test: {
              name: `${part}-timed`,
              include: [...TIMED_SUITES[part]],
              globalSetup: databaseSetup,
              maxWorkers: 1,
            },
          },
        ]),
        {
          extends: true,
          test: {
            name: 'bundled-chromium',
            include: BUNDLED_BROWSER_SUITES,
            env: { CHROMIUM_PATH: 'bundled' },
            globalSetup: databaseSetup,
            maxWorkers: 1,
          },
        },
      ],
    },
  }),
);
