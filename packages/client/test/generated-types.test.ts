/** The client's types follow the server's committed OpenAPI document: a route change not regenerated fails here. */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('has src/openapi.ts generated from the committed openapi.json (npm run generate -w @touchtrail/client)', () => {
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const check = spawnSync(
    process.execPath,
    [
      path.join(
        path.dirname(createRequire(import.meta.url).resolve('openapi-typescript/package.json')),
        'bin/cli.js',
      ),
      '../server/openapi.json',
      '-o',
      'src/openapi.ts',
      '--check',
    ],
    { cwd, encoding: 'utf8' },
  );
  expect({ status: check.status, output: check.stderr + check.stdout }).toMatchObject({ status: 0 });
});
