/**
 * The compiled server with the in-process ClickHouse killed with SIGKILL three times while
 * pageviews stream in and the shipper copies them, then started again until the copy has caught
 * up: every acknowledged event is stored in ClickHouse exactly once (no lost batch, no batch
 * stored twice), and ClickHouse holds what PostgreSQL holds.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLICKHOUSE_FOR_EVERY_APP, chdbInstalled } from '../test/clickhouse.js';
import { prepareServerProcess, SERVER_MAIN, type ServerProcess } from '../test/server-process.js';

const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const CONNECTION_JS = pathToFileURL(path.join(path.dirname(SERVER_MAIN), 'clickhouse', 'connection.js')).href;

/** The event ids ClickHouse stores, every copy counted, read by a process of its own (one per folder). */
async function storedEventIds(folder: string): Promise<string[]> {
  const script = `
    import { openClickHouse } from ${JSON.stringify(CONNECTION_JS)};
    const ch = await openClickHouse({ url: undefined, username: undefined, password: undefined,
      chdbPath: process.argv[1], database: 'touchtrail', cluster: undefined });
    const result = await ch.client.query({ query: 'SELECT event_id FROM touchtrail.events', format: 'JSONEachRow' });
    process.stdout.write(JSON.stringify((await result.json()).map((row) => row.event_id)));
    await ch.close();`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script, folder],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(stdout);
}

// Its own server process on its own engine: the run with ClickHouse under every test app adds nothing.
describe.runIf(chdbInstalled && !CLICKHOUSE_FOR_EVERY_APP)('the shipper killed while it copies', () => {
  let server: ServerProcess;
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'touchtrail-ship-kill-'));
    server = await prepareServerProcess('ship-kill', { CLICKHOUSE_URL: `chdb://${folder}` });
  }, 300_000);
  afterAll(async () => {
    await server.cleanUp();
    await rm(folder, { recursive: true, force: true });
  });

  const lagOf = async () => {
    const response = await fetch(`${server.base}/readyz`);
    const body = (await response.json()) as { clickhouse?: { ship_lag_seconds: Record<string, number> } };
    return body.clickhouse?.ship_lag_seconds;
  };

  it('stores every acknowledged event once', async () => {
    let child = await server.start();
    const { snippetKey } = await server.setUpSite('ship-kill.example.com');
    const acknowledged: string[] = [];
    let isStopping = false;
    const writer = async (worker: number) => {
      for (let i = 0; !isStopping; i++) {
        const eid = `w${worker}e${i}${randomBytes(6).toString('hex')}`;
        try {
          const response = await fetch(`${server.base}/v1/collect`, {
            method: 'POST',
            headers: { 'content-type': 'text/plain', 'user-agent': UA },
            body: JSON.stringify({
              type: 'pageview',
              site: snippetKey,
              vid: `visitor${worker}${i % 7}xx`,
              eid,
              url: `https://ship-kill.example.com/page-${i % 13}`,
            }),
          });
          if (response.status === 202) acknowledged.push(eid);
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 50)); // the server is down: wait for it
        }
      }
    };
    const writers = Array.from({ length: 6 }, (_, worker) => writer(worker));
    const waitFor = async (count: number) => {
      const deadline = Date.now() + 120_000;
      while (acknowledged.length < count && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
    };
    // Each round lets the shipper run a few times (every second) before the kill lands.
    for (const round of [1, 2, 3]) {
      await waitFor(acknowledged.length + 1500 + round * 300);
      await server.kill(child, 'SIGKILL');
      child = await server.start();
    }
    await waitFor(acknowledged.length + 500);
    isStopping = true;
    await Promise.all(writers);

    // Caught up: no row left that has waited a second or more, read twice.
    const deadline = Date.now() + 120_000;
    let zeroReads = 0;
    while (zeroReads < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const lag = await lagOf();
      zeroReads = lag && Object.values(lag).every((seconds) => seconds === 0) ? zeroReads + 1 : 0;
    }
    expect(zeroReads).toBe(2);
    expect(await server.kill(child, 'SIGTERM')).toBe(0);

    const stored = await storedEventIds(folder);
    const store = await server.openStore();
    const inPostgres = await store.db.selectFrom('events').select('event_id').orderBy('event_id').execute();
    await store.close();
    expect(acknowledged.length).toBeGreaterThan(5000);
    expect(new Set(stored).size).toBe(stored.length); // no batch stored twice
    expect([...stored].sort()).toEqual(inPostgres.map((row) => row.event_id).sort());
    const storedIds = new Set(stored);
    expect(acknowledged.filter((eid) => !storedIds.has(eid))).toEqual([]);
  }, 600_000);
});
