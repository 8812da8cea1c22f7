import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    globalSetup: ['tests/server/globalSetup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    benchmark: { include: ['tests/bench/**/*.bench.ts'] },
    reporters: ['default'],
  },
});
