/**
 * Serves the tracker (`/t.js`, path configurable as TRACKER_SCRIPT_PATH) with the configured
 * collect path written in, a content-hash ETag and a day-long cache, so a new release reaches
 * browsers within a day and unchanged files cost a 304.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';

export const TRACKER_FILE = new URL('../../../tracker/dist/t.js', import.meta.url);
const PLACEHOLDER = '__TT_COLLECT_PATH__';

export async function loadTrackerScript(collectPath: string): Promise<{ body: string; etag: string }> {
  const source = await readFile(TRACKER_FILE, 'utf8');
  const body = source.replaceAll(PLACEHOLDER, collectPath);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

export function registerTrackerRoute(
  app: FastifyInstance,
  deps: { scriptPath: string; collectPath: string },
) {
  let script: Promise<{ body: string; etag: string }> | undefined;
  app.get(
    deps.scriptPath,
    { config: { area: 'ingest', limits: false }, schema: { hide: true } },
    async (request, reply) => {
      script ??= loadTrackerScript(deps.collectPath);
      const { body, etag } = await script.catch((error) => {
        script = undefined;
        throw error;
      });
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=86400, stale-while-revalidate=604800')
        .header('etag', etag)
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('access-control-allow-origin', '*');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.send(body);
    },
  );
}
