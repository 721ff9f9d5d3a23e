/**
 * The compiled server, delivering webhooks to a real HTTPS receiver, killed with SIGKILL while
 * deliveries are in flight and started again: every delivery ends succeeded, none is lost, and
 * a fact delivered twice (at-least-once) carries the same webhook-id both times. The restarted
 * worker would wait for the dead worker's lease (60 seconds) before it retries what was in flight;
 * the test ends that minute in the database instead of waiting it out (that a lease holds until
 * it runs out is pinned, clock in hand, by webhooks.reliability.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareServerProcess, type ServerProcess } from '../test/server-process.js';
import { createTestPki, startReceiver, type TestPki, type TestReceiver } from './webhooks.fixtures.js';

const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const VISITS = 30;

describe('webhook delivery survives SIGKILL', () => {
  let pki: TestPki;
  let receiver: TestReceiver;
  let server: ServerProcess;
  /** Until the crash, the receiver holds every delivery's answer back, so the kill lands mid-delivery. */
  let isHolding = true;
  let answered = 0;
  beforeAll(async () => {
    pki = createTestPki();
    receiver = await startReceiver(pki.leaf, (request, response) => {
      // The creation ping is no delivery: held, it would only keep the webhook's creation waiting.
      if (request.body.includes('"type":"webhook.ping"')) {
        response.writeHead(204).end();
        return;
      }
      if (isHolding) {
        setTimeout(() => response.destroy(), 10_000).unref();
        return;
      }
      answered += 1;
      response.writeHead(204).end();
    });
    server = await prepareServerProcess('webhook-kill', {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      NODE_EXTRA_CA_CERTS: pki.caFile,
    });
  }, 300_000);
  afterAll(async () => {
    await server.cleanUp();
    await receiver.close();
    pki.remove();
  });

  it('delivers every fact after a crash, duplicates only with the same webhook-id', async () => {
    let child = await server.start();
    const { apiKey, snippetKey } = await server.setUpSite('kill.example.com');
    const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.base}/v1/sites/${snippetKey}/webhooks`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(created.status).toBe(201);
    const { id: webhookId } = (await created.json()) as { id: string };

    for (let i = 0; i < VISITS; i++) {
      const response = await fetch(`${server.base}/v1/collect`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'user-agent': UA },
        body: JSON.stringify({
          type: 'pageview',
          site: snippetKey,
          vid: `killvisitor${i}xx`,
          eid: `kill-event-${i}-xxxx`,
          url: 'https://kill.example.com/',
          ref: 'https://chatgpt.com/',
        }),
      });
      expect(response.status).toBe(202);
    }
    const facts = () =>
      new Set(
        receiver.requests
          .filter((r) => r.body.includes('ai_session.classified'))
          .map((r) => r.headers['webhook-id']),
      );
    const deadline = Date.now() + 60_000;
    while (facts().size < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await server.kill(child, 'SIGKILL');
    // Deliveries were on the wire and none had been answered when the worker died.
    expect(facts().size).toBeGreaterThan(0);
    expect(answered).toBe(0);
    isHolding = false;

    // Started again on the storage the kill left, then stopped cleanly to reach that storage.
    child = await server.start();
    await server.kill(child, 'SIGTERM');
    const store = await server.openStore();
    try {
      // As if the lease's minute had passed: what was in flight is due again.
      await store.db
        .updateTable('webhook_deliveries')
        .set({ locked_until: new Date() })
        .where('locked_until', '>', new Date())
        .execute();
    } finally {
      await store.close();
    }
    child = await server.start();
    const listed = async () => {
      const response = await fetch(
        `${server.base}/v1/sites/${snippetKey}/webhooks/${webhookId}/deliveries?limit=100`,
        { headers: auth },
      );
      return (
        (await response.json()) as {
          deliveries: { status: string; event_type: string; envelope_id: string }[];
        }
      ).deliveries;
    };
    const settleBy = Date.now() + 150_000;
    let deliveries = await listed();
    while (
      Date.now() < settleBy &&
      deliveries.filter((d) => d.event_type === 'ai_session.classified' && d.status === 'succeeded').length <
        VISITS
    ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      deliveries = await listed();
    }
    await server.kill(child, 'SIGTERM');

    const classified = deliveries.filter((d) => d.event_type === 'ai_session.classified');
    expect(classified).toHaveLength(VISITS);
    expect(classified.every((d) => d.status === 'succeeded')).toBe(true);
    // Every delivery reached the receiver, each under its own envelope id; repeats reuse it.
    expect(facts()).toEqual(new Set(classified.map((d) => d.envelope_id)));
  }, 300_000);
});
