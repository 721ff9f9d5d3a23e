/**
 * The compiled server killed with SIGKILL in the middle of a stream of collect writes and
 * started again: every event that was acknowledged is there.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareServerProcess, type ServerProcess } from '../test/server-process.js';

const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

describe('crash recovery', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await prepareServerProcess('crash');
  }, 300_000);
  afterAll(() => server.cleanUp());

  it('loses nothing acknowledged when killed with SIGKILL mid-stream', async () => {
    let child = await server.start();
    const { apiKey, snippetKey } = await server.setUpSite('crash.example.com');

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
              vid: `visitor${worker}xx`,
              eid,
              url: 'https://crash.example.com/',
            }),
          });
          if (response.status === 202) acknowledged.push(eid);
        } catch {
          return;
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, worker) => writer(worker));
    const deadline = Date.now() + 60_000;
    while (acknowledged.length < 100 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const killed = server.kill(child, 'SIGKILL');
    isStopping = true;
    await Promise.all(writers);
    await killed;
    expect(acknowledged.length).toBeGreaterThan(20);

    child = await server.start();
    const keys = await fetch(`${server.base}/v1/account/keys`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(keys.status).toBe(200);
    expect(await server.kill(child, 'SIGTERM')).toBe(0);

    const database = await server.openStore();
    try {
      const rows = await database.db
        .selectFrom('events')
        .select('event_id')
        .where('event_id', 'in', acknowledged)
        .execute();
      const stored = new Set(rows.map((row) => row.event_id));
      expect(acknowledged.filter((eid) => !stored.has(eid))).toEqual([]);
    } finally {
      await database.close();
    }
  }, 240_000);
});
