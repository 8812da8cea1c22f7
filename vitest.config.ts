import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/**
 * The suites that drive a browser, run a second time on the Chromium inside @sparticuz/chromium
 * (`CHROMIUM_PATH=bundled`) even where Debian's is installed, so a machine without a system browser
 * is known to work (issue 14): printing, its isolation and limits, the application PDF, conversion,
 * and the end-to-end first load and PDF download.
 */
export const BUNDLED_BROWSER_SUITES = [
  'tests/security/printBrowser.test.ts',
  'tests/security/rendering.test.ts',
  'tests/server/applicationPdf.test.ts',
  'tests/e2e/firstLoad.test.ts',
  'tests/e2e/pdf.test.ts',
];

export default mergeConfig(
  viteConfig,
  defineConfig({
    // Tests that import the workspace packages by name run on their sources (tsconfig.json paths).
    resolve: { tsconfigPaths: true },
    test: {
      globalSetup: ['tests/server/globalSetup.ts'],
      setupFiles: ['tests/setup/tenantPage.ts'],
      testTimeout: 20_000,
      hookTimeout: 60_000,
      reporters: ['default'],
      projects: [
        { extends: true, test: { name: 'default', include: ['tests/**/*.test.{ts,tsx}'] } },
        {
          extends: true,
          test: {
            name: 'bundled-chromium',
            include: BUNDLED_BROWSER_SUITES,
            env: { CHROMIUM_PATH: 'bundled' },
          },
        },
      ],
    },
  }),
);
