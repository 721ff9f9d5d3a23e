import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The stdio server runs from dist against the real Touchtrail server, on its test databases;
    // the server's global setup builds dist when it is stale.
    globalSetup: ['../server/src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
