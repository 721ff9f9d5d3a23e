/**
 * `npm run lint:openapi`: Redocly's `recommended` rules, with invalid examples as errors, over the
 * committed openapi.json (or the file named). Prints each problem as Redocly's CLI does and exits
 * 1 when any is an error. src/http/openapi.test.ts applies the same rules.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConfig, formatProblems, getTotals, lintFromString } from '@redocly/openapi-core';

const file = path.resolve(process.argv[2] ?? fileURLToPath(new URL('../openapi.json', import.meta.url)));
// An example that does not match its schema misleads readers and client authors: an error here.
const LINT_CONFIG = {
  extends: ['recommended'],
  rules: {
    'no-invalid-media-type-examples': 'error',
    'no-invalid-parameter-examples': 'error',
    'no-invalid-schema-examples': 'error',
  },
};
const config = await createConfig(LINT_CONFIG);
const problems = await lintFromString({ source: await readFile(file, 'utf8'), absoluteRef: file, config });
const totals = getTotals(problems);
formatProblems(problems, {
  format: 'codeframe',
  totals,
  version: 'openapi-core',
  color: process.stdout.isTTY,
});
process.stdout.write(
  `${path.relative(process.cwd(), file)}: ${totals.errors} errors, ${totals.warnings} warnings\n`,
);
process.exit(totals.errors > 0 ? 1 : 0);
