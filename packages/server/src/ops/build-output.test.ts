/**
 * The production build (tsconfig.build.json) holds no test code: no file it compiles is a test,
 * fixture, dataset or harness file, and none imports a test-only package. Asked of the compiler
 * (the files it would emit), not of dist/, which an older build may have left files in.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));
const TEST_ONLY_FILE = /(\.test|\.fixtures|\.dataset|\.seed|\.expected|\.test-app)\.ts$|\/src\/test\//;
const TEST_ONLY_IMPORT =
  /from '(vitest|vitest\/.*|fast-check|playwright-core|@axe-core\/playwright|jsqr|(\.\.?\/)+test\/[^']*)'/;

describe('the production build', () => {
  it('compiles no test file and no import of a test-only package', async () => {
    // The workspace's TypeScript is hoisted to the root node_modules.
    const tsc = path.join(PACKAGE_DIR, '../../node_modules/typescript/bin/tsc');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [tsc, '-p', 'tsconfig.build.json', '--listFilesOnly'],
      { cwd: PACKAGE_DIR },
    );
    const sources = stdout
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith(path.join(PACKAGE_DIR, 'src')));
    expect(sources.length).toBeGreaterThan(50);
    expect(sources.filter((file) => TEST_ONLY_FILE.test(file))).toEqual([]);
    const importing: string[] = [];
    for (const file of sources) {
      if (TEST_ONLY_IMPORT.test(await readFile(file, 'utf8'))) importing.push(file);
    }
    expect(importing).toEqual([]);
  }, 60_000);
});
