import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      include: ['tests/**/*.test.{ts,tsx}'],
      globalSetup: ['tests/server/globalSetup.ts'],
      testTimeout: 20_000,
      hookTimeout: 60_000,
      reporters: ['default'],
    },
  }),
);
