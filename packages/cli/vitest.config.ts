import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The built command runs against the real server, on the server's test databases; the
    // server's global setup rebuilds the CLI first when its sources are newer than dist.
    globalSetup: ['../server/src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
