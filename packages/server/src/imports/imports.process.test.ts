/**
 * A GA4 export of 200,000 rows imported through the compiled server, run with a 96 MB JavaScript
 * heap, as an operator runs it (the import job in its background loop): the upload is streamed
 * from a generator and never exists whole, and the server must read it a batch at a time to live.
 * The file is about 110 MB; the answer is known from how it is made. A million rows proved the
 * same on PostgreSQL in `npm run bench:import`, only slower (bench/RESULTS.md).
 *
 * About the stream, not the engine: runs on PGlite only (skipped when DATABASE_URL is set).
 */
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareServerProcess, type ServerProcess } from '../test/server-process.js';
import { ga4Row } from './imports.fixtures.js';

const PEOPLE = 20_000;
const HEAP_MB = 96;
const DAY = '2025-04-02';

/** Per person: session_start (left out), 8 pageviews a minute apart, then 30 s of engagement. */
function* ga4File(domain: string): Generator<Buffer> {
  const device = { category: 'desktop', operating_system: 'Windows', browser: 'Chrome' };
  let lines: string[] = [];
  for (let person = 0; person < PEOPLE; person++) {
    const user = `${person}.1700000000`;
    const start = Date.parse(`${DAY}T00:00:00Z`) + person * 3000;
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
    const base = { user, session: 1700000000 + person, country: 'Germany', device };
    lines.push(ga4Row({ ...base, name: 'session_start', at: at(0), location: `https://${domain}/p0` }));
    for (let page = 0; page < 8; page++) {
      const referrer =
        page === 0 ? (person % 4 === 0 ? 'https://chatgpt.com/' : '') : `https://${domain}/p${page - 1}`;
      lines.push(
        ga4Row({
          ...base,
          name: 'page_view',
          at: at(page),
          location: `https://${domain}/p${page}`,
          referrer,
        }),
      );
    }
    lines.push(
      ga4Row({
        ...base,
        name: 'user_engagement',
        at: at(8),
        location: `https://${domain}/p7`,
        engagedMs: 30_000,
      }),
    );
    if (lines.length >= 1000) {
      yield Buffer.from(`${lines.join('\n')}\n`);
      lines = [];
    }
  }
  if (lines.length > 0) yield Buffer.from(`${lines.join('\n')}\n`);
}

describe.skipIf(process.env.DATABASE_URL)('imports: 200,000 GA4 rows under a small heap', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await prepareServerProcess('imports', { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` });
  }, 120_000);
  afterAll(() => server?.cleanUp());

  it('streams the upload in, reads it a batch at a time and counts every visit', async () => {
    const child = await server.start();
    const domain = 'history.example.com';
    const { apiKey, snippetKey } = await server.setUpSite(domain);
    const headers = { authorization: `Bearer ${apiKey}` };
    const upload = await fetch(`${server.base}/v1/sites/${snippetKey}/imports?source=ga4`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      body: Readable.toWeb(Readable.from(ga4File(domain))) as ReadableStream<Uint8Array>,
      duplex: 'half',
    } as RequestInit);
    expect(upload.status).toBe(202);
    const { id } = ((await upload.json()) as { import: { id: string } }).import;
    let status: { status: string; progress: { rows_read: number; rows_refused: number }; error: unknown };
    for (;;) {
      const response = await fetch(`${server.base}/v1/sites/${snippetKey}/imports/${id}`, { headers });
      status = ((await response.json()) as { import: typeof status }).import;
      if (status.status !== 'pending' && status.status !== 'running') break;
      await sleep(500);
    }
    expect(status).toMatchObject({
      status: 'completed',
      error: null,
      progress: { rows_read: PEOPLE * 10, rows_refused: PEOPLE },
    });
    const stats = await fetch(`${server.base}/v1/stats/query`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        site_id: snippetKey,
        date_range: [DAY, DAY],
        metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'],
        dimensions: ['visit:channel'],
        include: { imports: true },
      }),
    });
    expect(((await stats.json()) as { results: unknown }).results).toEqual([
      { dimensions: ['direct'], metrics: [PEOPLE * 0.75, PEOPLE * 0.75, PEOPLE * 6, 0, 30] },
      { dimensions: ['ai'], metrics: [PEOPLE / 4, PEOPLE / 4, PEOPLE * 2, 0, 30] },
    ]);
    expect(child.exitCode).toBeNull();
    await server.kill(child, 'SIGTERM');
  }, 300_000);
});
