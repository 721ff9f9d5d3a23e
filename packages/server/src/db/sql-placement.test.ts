/**
 * SQL lives in `*.store.ts`, `*.query.ts` and `*.sql.ts` files, in db/ (the database's own
 * infrastructure) and in migrations/ and sql/: a service or a route that wants rows calls one of
 * those. The check reads every production source file (what tsconfig.build.json compiles) for
 * Kysely's query builder and its `sql` tag.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../', import.meta.url));
const BUILD_CONFIG = fileURLToPath(new URL('../../tsconfig.build.json', import.meta.url));

const SQL_FILE = /\.(store|query|sql)\.ts$/;
const USES_SQL = [
  /\bsql(<[^`]*?>)?`/,
  /\bsql\.(raw|ref|lit|id|join|table|val)\(/,
  /\.(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)\(/,
];

/** Files that build SQL outside those names, each with its reason. None today. */
const ALLOWED = new Set<string>([]);

/** Whether tsconfig.build.json leaves the file out of the build: tests and their fixtures. */
async function isTestFile(): Promise<(file: string) => boolean> {
  const { exclude } = JSON.parse(await readFile(BUILD_CONFIG, 'utf8')) as { exclude: string[] };
  const suffixes: string[] = [];
  const folders: string[] = [];
  for (const pattern of exclude) {
    const suffix = /^src\/\*\*\/\*(\.[a-z.-]+)$/.exec(pattern)?.[1];
    const folder = /^src\/([a-z-]+)$/.exec(pattern)?.[1];
    if (suffix) suffixes.push(suffix);
    else if (folder) folders.push(`${folder}/`);
    else throw new Error(`tsconfig.build.json: no reading of exclude pattern ${pattern} here`);
  }
  return (file) =>
    suffixes.some((suffix) => file.endsWith(suffix)) || folders.some((f) => file.startsWith(f));
}

async function filesBuildingSql(): Promise<string[]> {
  const isTest = await isTestFile();
  const names = (await readdir(SRC, { recursive: true }))
    .map((name) => name.split('\\').join('/'))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .filter((name) => !isTest(name) && !SQL_FILE.test(name) && !name.startsWith('db/'))
    .sort();
  const found: string[] = [];
  for (const name of names) {
    const text = await readFile(`${SRC}${name}`, 'utf8');
    if (USES_SQL.some((pattern) => pattern.test(text))) found.push(name);
  }
  return found;
}

describe('where SQL lives', () => {
  it('is only in store, query and sql files, db/ and the allowed files', async () => {
    const found = await filesBuildingSql();
    expect(
      found.filter((name) => !ALLOWED.has(name)),
      'move the SQL into a *.store.ts, *.query.ts or *.sql.ts file next to it',
    ).toEqual([]);
    expect(
      [...ALLOWED].filter((name) => !found.includes(name)),
      'these allowed files build no SQL any more: take them off the list',
    ).toEqual([]);
  });

  it('recognises the query builder and the sql tag', () => {
    const uses = (text: string) => USES_SQL.some((pattern) => pattern.test(text));
    expect(uses("db.selectFrom('sites')")).toBe(true);
    expect(uses('sql`select 1`')).toBe(true);
    expect(uses('sql<{ n: number }>`select 1 as n`')).toBe(true);
    expect(uses('sql<{ n: number; m: string }>`select 1 as n, 2 as m`')).toBe(true);
    expect(uses("sql.ref('site_id')")).toBe(true);
    expect(uses("import { sql } from 'kysely';\nconst wait = db.transaction();")).toBe(false);
  });
});
