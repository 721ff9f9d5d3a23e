/** Builds dist/t.js before the browser tests, so they never run against a stale or missing build. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../build.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
}
