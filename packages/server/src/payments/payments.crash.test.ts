/**
 * A payment load against the compiled server, killed with SIGKILL mid-run and started again:
 * every payment that got a 202 is stored exactly once, with its conversion event and
 * attribution job, and retrying the posts that got no answer records each of them once.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareServerProcess, type ServerProcess } from '../test/server-process.js';

describe('payments survive a crash', () => {
  let server: ServerProcess;
  let base: string;
  beforeAll(async () => {
    server = await prepareServerProcess('pay-crash');
    base = server.base;
  }, 300_000);
  afterAll(() => server.cleanUp());

  it('stores every acknowledged payment exactly once after SIGKILL and restart', async () => {
    let child = await server.start();
    const { apiKey, snippetKey: siteKey } = await server.setUpSite('pay-crash.example.com');
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const pay = (transactionId: string) =>
      fetch(`${base}/v1/server/payments`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          site_id: siteKey,
          transaction_id: transactionId,
          amount: 19.99,
          currency: 'USD',
          provider: 'stripe',
        }),
      });

    const attempted: string[] = [];
    const acknowledged = new Set<string>();
    let isStopping = false;
    const worker = async (id: number) => {
      for (let i = 0; !isStopping; i++) {
        // Every fourth post repeats an earlier one, as a processor retrying a webhook would.
        const earlier = attempted[Math.floor(Math.random() * attempted.length)];
        const transactionId =
          i % 4 === 3 && earlier ? earlier : `ch_w${id}_${i}_${randomBytes(4).toString('hex')}`;
        if (transactionId !== earlier) attempted.push(transactionId);
        try {
          const response = await pay(transactionId);
          if (response.status === 202) acknowledged.add(transactionId);
        } catch {
          return;
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, id) => worker(id));
    // Killed once the load is well under way, with posts in flight (however fast this machine is).
    const deadline = Date.now() + 60_000;
    while (acknowledged.size < 100 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const killed = server.kill(child, 'SIGKILL');
    isStopping = true;
    await Promise.all(workers);
    await killed;
    expect(acknowledged.size).toBeGreaterThan(20);

    child = await server.start();
    // Posts that got no answer may or may not have committed: retried, each is recorded once.
    for (const transactionId of attempted.filter((id) => !acknowledged.has(id))) {
      const response = await pay(transactionId);
      expect(response.status).toBe(202);
      expect(['recorded', 'duplicate']).toContain(((await response.json()) as { status: string }).status);
    }
    expect(await server.kill(child, 'SIGTERM')).toBe(0);

    const database = await server.openStore();
    try {
      const payments = await database.db.selectFrom('payments').select(['id', 'transaction_id']).execute();
      const count = new Map<string, number>();
      for (const p of payments) count.set(p.transaction_id, (count.get(p.transaction_id) ?? 0) + 1);
      expect([...acknowledged].filter((id) => count.get(id) !== 1)).toEqual([]);
      expect(attempted.filter((id) => count.get(id) !== 1)).toEqual([]);
      expect(payments).toHaveLength(attempted.length);
      const events = await database.db
        .selectFrom('events')
        .select('event_id')
        .where('name', '=', 'payment')
        .execute();
      const jobs = await database.db.selectFrom('attribution_jobs').select('event_id').execute();
      const expected = payments.map((p) => `pay_${p.id}`).sort();
      expect(events.map((e) => e.event_id).sort()).toEqual(expected);
      expect(
        jobs
          .map((j) => j.event_id)
          .filter((id) => id.startsWith('pay_'))
          .sort(),
      ).toEqual(expected);
    } finally {
      await database.close();
    }
  }, 300_000);
});
