/**
 * Builds src/tracker.ts into dist/t.js (one minified IIFE) and fails when the gzipped file is
 * over budget or when the collect-path placeholder the server substitutes did not survive.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const MAX_GZIP_BYTES = 2500;
const PLACEHOLDER = '__TT_COLLECT_PATH__';
const root = path.dirname(fileURLToPath(import.meta.url));
const outfile = path.join(root, 'dist', 't.js');

function fail(message) {
  console.error(`tracker build failed: ${message}`);
  process.exit(1);
}

let result;
try {
  result = await build({
    entryPoints: [path.join(root, 'src', 'tracker.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2017',
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
} catch {
  fail('esbuild reported errors (above)');
}

const code = result.outputFiles[0].text;
const placeholders = code.split(PLACEHOLDER).length - 1;
if (placeholders !== 1)
  fail(`expected the ${PLACEHOLDER} string exactly once in t.js, found ${placeholders}`);

const rawBytes = Buffer.byteLength(code);
const gzipBytes = gzipSync(code).length;
console.log(`dist/t.js: ${rawBytes} bytes raw, ${gzipBytes} bytes gzipped (budget ${MAX_GZIP_BYTES})`);
if (gzipBytes > MAX_GZIP_BYTES) {
  fail(`t.js is ${gzipBytes} bytes gzipped, over the ${MAX_GZIP_BYTES}-byte budget`);
}

await mkdir(path.dirname(outfile), { recursive: true });
await writeFile(outfile, code);
