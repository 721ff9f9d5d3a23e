/**
 * Every path the docs name exists: ARCHITECTURE.md, the README.md of each folder under
 * packages/server/src and each package's README.md. A moved or renamed file fails here with the
 * doc and the path, instead of leaving a newcomer a map to nowhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SERVER = path.join(ROOT, 'packages/server');
const SERVER_SRC = path.join(SERVER, 'src');

/**
 * A doc names a path in a `backticked span` or as a relative link target. A span is a path when
 * it has no whitespace, contains `/` or ends in a source extension, and is not a URL, an HTTP
 * route or absolute path (leading `/`), an npm package (`@…`), a home or variable path (`~ $ %`),
 * a glob or placeholder (`* < { [ … = | , :`), a MIME type or build output (`dist/`). It must exist
 * under the repository root, packages/server/src, packages/server or the doc's own folder.
 */
const SOURCE_EXTENSION = /\.(ts|tsx|mjs|sql|json|md)$/;
const NOT_A_PATH =
  /:\/\/|^[/@~$%]|[*<>{}[\]…=|,:\\'"]|^(text|application|image|multipart)\/|(^|\/)dist(\/|$)/;
/** Files on the reader's machine or made by a test run, which the package READMEs name. */
const NOT_IN_REPOSITORY = new Set([
  'FILE.csv.touchtrail-import.json',
  'claude_desktop_config.json',
  '.cursor/mcp.json',
  'example.mjs',
  'captures/',
]);

function namedPaths(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] as string);
  const links = [...prose.matchAll(/\]\(([^)\s#]+)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z]+:/.test(target));
  const isPath = (text: string) =>
    !/\s/.test(text) && (text.includes('/') || SOURCE_EXTENSION.test(text)) && !NOT_A_PATH.test(text);
  return [...new Set([...spans.filter(isPath), ...links])].filter((text) => !NOT_IN_REPOSITORY.has(text));
}

function docs(): string[] {
  const featureReadmes = readdirSync(SERVER_SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => path.basename(file) === 'README.md')
    .map((file) => path.join(SERVER_SRC, file));
  const packageReadmes = readdirSync(path.join(ROOT, 'packages'))
    .map((name) => path.join(ROOT, 'packages', name, 'README.md'))
    .filter((file) => existsSync(file));
  return [path.join(ROOT, 'ARCHITECTURE.md'), ...featureReadmes.sort(), ...packageReadmes];
}

describe('paths named in the docs', () => {
  it('all exist', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const doc of docs()) {
      const bases = [ROOT, SERVER_SRC, SERVER, path.dirname(doc)];
      for (const named of namedPaths(readFileSync(doc, 'utf8'))) {
        checked += 1;
        if (!bases.some((base) => existsSync(path.join(base, named)))) {
          missing.push(`${path.relative(ROOT, doc)}: ${named}`);
        }
      }
    }
    // The rule above still finds the paths of the map itself.
    expect(checked).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});
