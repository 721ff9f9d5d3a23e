/**
 * Builds the OpenAPI document without a database or a socket, for `npm run openapi` and the
 * drift test. The committed `openapi.json` at the package root must equal what this returns.
 */
import { fileURLToPath } from 'node:url';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { systemClock } from '../lib/clock.js';

export const OPENAPI_FILE = fileURLToPath(new URL('../../openapi.json', import.meta.url));

export async function generateOpenApiDocument(): Promise<string> {
  const database = await openDatabase({ kind: 'pglite' });
  const config = loadConfig({ PUBLIC_URL: 'http://localhost:8080', SECRET_KEY: 'x'.repeat(32) });
  const app = await buildApp({ config, database, clock: systemClock, logger: false });
  try {
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
    await database.close();
  }
}
