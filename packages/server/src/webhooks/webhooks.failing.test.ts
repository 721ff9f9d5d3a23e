/**
 * An endpoint whose attempts fail for 5 days in a row is disabled and marked `failing`; its
 * queued deliveries wait until it is enabled again; any success restarts the count.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../lib/clock.js';
import type { ReceivedRequest, ReceiverHandler } from './webhooks.fixtures.js';
import { insertFact, useWebhookTestApp } from './webhooks.test-app.js';

const isPing = (request: ReceivedRequest) => request.body.includes('"type":"webhook.ping"');

describe('failing endpoints', () => {
  const w = useWebhookTestApp();
  const receiver = (events: ReceiverHandler) =>
    w.startReceiver((request, response, index) =>
      isPing(request) ? response.writeHead(204).end() : events(request, response, index),
    );
  const run = () => w.t.app.services.webhooks.runDeliveriesOnce();

  it('disables an endpoint failing for 5 days; its deliveries wait until it is enabled again', async () => {
    let healthy = false;
    const target = await receiver((_request, response) => response.writeHead(healthy ? 200 : 500).end());
    const hook = await w.api.add(target.url);
    await insertFact(w.t, w.siteId);
    await run();
    w.t.clock.advance(5 * DAY_MS + MINUTE_MS);
    await insertFact(w.t, w.siteId);
    await run();
    const listed = (await w.api.list()).json().webhooks.find((h: { id: string }) => h.id === hook.id);
    expect(listed).toMatchObject({ enabled: false, verification_status: 'failing' });

    await insertFact(w.t, w.siteId);
    expect((await run()).dispatched.deliveries).toBe(0);
    w.t.clock.advance(11 * HOUR_MS);
    expect(await run()).toMatchObject({ attempted: 0 });
    healthy = true;
    await w.api.update(hook.id, { enabled: true });
    expect(await run()).toMatchObject({ attempted: 2, succeeded: 2 });
    await w.api.remove(hook.id);
  });

  it('restarts the 5-day count after any success', async () => {
    let healthy = false;
    const target = await receiver((_request, response) => response.writeHead(healthy ? 200 : 500).end());
    const hook = await w.api.add(target.url);
    const failOnce = async () => {
      healthy = false;
      await insertFact(w.t, w.siteId);
      await run();
    };
    await failOnce();
    w.t.clock.advance(2 * DAY_MS);
    healthy = true;
    await insertFact(w.t, w.siteId);
    expect(await run()).toMatchObject({ succeeded: 2 });
    w.t.clock.advance(DAY_MS);
    await failOnce();
    w.t.clock.advance(3 * DAY_MS);
    await failOnce();
    const listed = (await w.api.list()).json().webhooks.find((h: { id: string }) => h.id === hook.id);
    expect(listed).toMatchObject({ enabled: true, verification_status: 'verified' });
    await w.api.remove(hook.id);
  });
});
