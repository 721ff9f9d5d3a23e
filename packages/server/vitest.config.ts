import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files share a worker's module graph: importing the app once per worker instead of once per
    // file saves most of the suite's import time. Each file still gets its own app and database.
    isolate: false,
    // Two cores: more workers than that only adds PGlite start-up time.
    maxWorkers: 2,
  },
});
