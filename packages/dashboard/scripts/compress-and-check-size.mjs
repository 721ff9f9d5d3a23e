/**
 * After `vite build`: writes gzip and brotli copies of the text assets (the server sends them
 * to browsers that accept them) and fails the build when the JavaScript a first visit loads —
 * the entry chunk and every chunk it imports statically (what index.html preloads) — is over
 * 200 KB gzipped. Pages are split into chunks of their own and are not counted.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
export const INITIAL_JS_LIMIT_BYTES = 200 * 1024;

const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite', 'manifest.json'), 'utf8'));
const gzipped = (file) => gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length;

for (const chunk of Object.values(manifest)) {
  for (const file of [chunk.file, ...(chunk.css ?? [])]) {
    const body = readFileSync(path.join(DIST, file));
    writeFileSync(path.join(DIST, `${file}.gz`), gzipSync(body, { level: 9 }));
    writeFileSync(
      path.join(DIST, `${file}.br`),
      brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
}

const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
const initial = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || initial.has(chunk.file)) return;
  initial.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit(Object.keys(manifest).find((key) => manifest[key] === entry));
const total = [...initial].reduce((sum, file) => sum + gzipped(file), 0);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(
  `initial JavaScript: ${kb(total)} gzipped in ${initial.size} file(s), limit ${kb(INITIAL_JS_LIMIT_BYTES)}`,
);
if (total > INITIAL_JS_LIMIT_BYTES) {
  console.error('the initial JavaScript is over its budget: split the new code into a lazy page chunk');
  process.exit(1);
}
