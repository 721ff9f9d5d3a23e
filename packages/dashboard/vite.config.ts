import { defineConfig } from 'vite';

// `npm run dev -w @touchtrail/dashboard` serves the app with the API of a server on :8080.
const api = process.env.TOUCHTRAIL_URL ?? 'http://localhost:8080';

export default defineConfig({
  build: {
    target: 'es2022',
    manifest: true,
    // Icons and fonts stay files of their own, so the content security policy needs no data: fonts.
    assetsInlineLimit: 0,
    rolldownOptions: {
      // Libraries marked "use client" for React server components: meaningless in a browser bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: { proxy: { '/v1': api, '/t.js': api } },
});
