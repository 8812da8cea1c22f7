import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/**
 * The suites by what they need, one project each (`npm run test:unit`, `test:server`, `test:e2e`);
 * `npm test` runs them all. Every test file belongs to exactly one of the three
 * (tests/architecture/testProjects.test.ts).
 */
export const TEST_PROJECTS = {
  /** No database, server or browser: they pay none of the global setup's migrations. */
  unit: ['tests/{runtime,definitions,contract,renderers,src,architecture}/**/*.test.{ts,tsx}'],
  /** The server on PGlite (and PostgreSQL when TEST_DATABASE_URL is set), its processes, the packages. */
  server: ['tests/{server,security,reliability,faults,packages,production}/**/*.test.{ts,tsx}'],
  /** The applicant's and staff's pages in Chromium against a real server. */
  e2e: ['tests/e2e/**/*.test.{ts,tsx}'],
};

/**
 * The suites that drive a browser, run a second time on the Chromium inside @sparticuz/chromium
 * (`CHROMIUM_PATH=bundled`) even where Debian's is installed, so a machine without a system browser
 * is known to work (D203): printing, its isolation and limits, the application PDF, conversion,
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
 * The server suites that assert a bound in time (a burst's `/healthz`, a print stopped, a shutdown,
 * timing medians, a queue's waits): they run one at a time, each in a process of its own, with no
 * other file beside them, even where the others run several at once (`--maxWorkers`, D203); the
 * paired ones below two at a time, beside each other only (D203).
 */
export const TIMED_SUITES = [
  'tests/faults/database.faults.test.ts',
  'tests/security/accountTiming.test.ts',
  'tests/security/burst.test.ts',
  'tests/security/conversion.test.ts',
  'tests/security/fairness.test.ts',
  'tests/security/rendering.test.ts',
  'tests/security/unreadBody.test.ts',
  'tests/server/productProcess.test.ts',
  'tests/server/queue.lanes.test.ts',
  'tests/server/shutdown.test.ts',
];

/**
 * The timed suites whose bounds are about processes (a start awaited for minutes, a stop within
 * seconds, a stalled body waited out), with slack that holds with one other such file beside them:
 * they run two at a time, beside each other only, before the others run alone (D203).
 */
export const PAIRED_TIMED_SUITES = [
  'tests/security/unreadBody.test.ts',
  'tests/server/productProcess.test.ts',
  'tests/server/shutdown.test.ts',
];

/** The bundled reruns of timed suites: they keep the timed suites' terms (D203). */
const BUNDLED_TIMED_SUITES = BUNDLED_BROWSER_SUITES.filter((file) => TIMED_SUITES.includes(file));

/** Two files at a time on CI's two cores, more where there are more, one on a single core. */
const workers = availableParallelism() < 2 ? 1 : Math.max(2, availableParallelism() - 1);

/**
 * The projects run one after another, each with every worker (D203): files of different projects
 * side by side slowed one another (a browser walk's Chromium and server against a server file's
 * processes and database).
 */
const inTurn = (groupOrder: number) => ({ sequence: { groupOrder } });

/**
 * A group of its own after the others: one file at a time, each in a process of its own, nothing
 * beside it (D203).
 */
const alone = { maxWorkers: 1, isolate: true, ...inTurn(4) };

/**
 * Two files at a time (one on a one-core machine), each in a process of its own, beside each other
 * only (D203).
 */
const paired = { maxWorkers: Math.min(2, workers), isolate: true, ...inTurn(3) };

/**
 * A larger young generation for the workers of the jsdom and browser files, which allocate fast
 * (jsdom, the walks' server and playwright): fewer scavenges, faster projects (D203). The server
 * files and the processes any suite starts keep Node's default.
 */
const largerYoungGeneration = { execArgv: ['--max-semi-space-size=64'] };

/** The server's own choice of browser made the one inside @sparticuz/chromium (D203). */
const bundledBrowser = { CHROMIUM_PATH: 'bundled' };

/** Migrates PGlite once per project, and the PostgreSQL template when TEST_DATABASE_URL is set. */
const databaseSetup = ['tests/server/globalSetup.ts'];
/** The database, and the server's bundles for the suites that start it as a process (D203). */
const serverSetup = [...databaseSetup, 'tests/server/bundleSetup.ts'];

export default mergeConfig(
  viteConfig,
  defineConfig({
    // Tests that import the workspace packages by name run on their sources (tsconfig.json paths).
    resolve: { tsconfigPaths: true },
    test: {
      // Two files at a time on CI's two cores, more where there are more: the suites that assert a
      // bound in time run apart (`server-timed`), and the others pass beside one another (D203).
      maxWorkers: workers,
      // The tenant data the server inlines into each page, for the jsdom suites (D143).
      setupFiles: ['tests/setup/tenantPage.ts'],
      testTimeout: 20_000,
      hookTimeout: 60_000,
      reporters: ['default'],
      projects: [
        // The files of each project share their worker: the modules, PGlite, jsdom and the client
        // build are loaded once per worker, not once per file (D203).
        {
          extends: true,
          test: {
            name: 'unit',
            include: TEST_PROJECTS.unit,
            isolate: false,
            ...largerYoungGeneration,
            ...inTurn(0),
          },
        },
        {
          extends: true,
          test: {
            name: 'server',
            include: TEST_PROJECTS.server,
            exclude: [...configDefaults.exclude, ...TIMED_SUITES],
            globalSetup: serverSetup,
            isolate: false,
            ...inTurn(1),
          },
        },
        {
          extends: true,
          test: {
            name: 'server-timed-paired',
            include: PAIRED_TIMED_SUITES,
            globalSetup: serverSetup,
            ...paired,
          },
        },
        {
          extends: true,
          test: {
            name: 'server-timed',
            include: TIMED_SUITES,
            exclude: [...configDefaults.exclude, ...PAIRED_TIMED_SUITES],
            globalSetup: serverSetup,
            ...alone,
          },
        },
        {
          extends: true,
          test: {
            name: 'e2e',
            include: TEST_PROJECTS.e2e,
            isolate: false,
            ...largerYoungGeneration,
            globalSetup: databaseSetup,
            ...inTurn(2),
          },
        },
        // The rerun on the bundled browser: a timed suite still alone after the others (D203).
        {
          extends: true,
          test: {
            name: 'bundled-chromium',
            include: BUNDLED_BROWSER_SUITES.filter((file) => !BUNDLED_TIMED_SUITES.includes(file)),
            env: bundledBrowser,
            globalSetup: databaseSetup,
            ...largerYoungGeneration,
            // Beside the walks: browser files both, so no group waits on its own slowest file.
            ...inTurn(2),
          },
        },
        {
          extends: true,
          test: {
            name: 'bundled-chromium-timed',
            include: BUNDLED_TIMED_SUITES,
            env: bundledBrowser,
            globalSetup: databaseSetup,
            ...alone,
          },
        },
      ],
    },
  }),
);
