/**
 * Facts to deliveries, end to end: AI visits posted through /v1/collect reach a receiver that
 * verifies every signature; the fan-out respects subscriptions and enabled flags and never
 * enqueues a fact twice; the payloads match the documented event schemas.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { newId } from '../lib/ids.js';
import { aiSessionClassifiedEvent, conversionAttributedEvent } from './webhook-events.docs.js';
import type { TestReceiver } from './webhooks.fixtures.js';
import { deliveryRows, useWebhookTestApp, verifyReceived } from './webhooks.test-app.js';

describe('webhook delivery of facts', () => {
  const w = useWebhookTestApp();
  let receiver: TestReceiver;
  const run = () => w.t.app.services.webhooks.runDeliveriesOnce();
  beforeAll(async () => {
    receiver = await w.startReceiver();
  });

  it('delivers ai_session.classified for an AI visit, signed, with the snippet key', async () => {
    const hook = await w.api.add(`${receiver.url}?to=ai`);
    const conversionsOnly = await w.api.add(`${receiver.url}?to=conv`, ['conversion.attributed']);
    const disabled = await w.api.add(`${receiver.url}?to=off`);
    await w.api.update(disabled.id, { enabled: false });
    const before = receiver.requests.length;

    const vid = newVisitorId();
    const posted = await collect(
      w.t,
      pageview(w.site.site_id, vid, 'https://shop.example/pricing', 'https://chatgpt.com/'),
    );
    expect(posted.statusCode).toBe(202);
    await collect(
      w.t,
      pageview(w.site.site_id, newVisitorId(), 'https://shop.example/', 'https://www.google.com/'),
    );
    const report = await run();
    expect(report).toMatchObject({ dispatched: { facts: 1, deliveries: 1 }, attempted: 1, succeeded: 1 });

    const delivered = receiver.requests.slice(before);
    expect(delivered).toHaveLength(1);
    const [request] = delivered;
    if (!request) throw new Error('nothing delivered');
    const body = verifyReceived(request, hook.secret);
    expect(body.type).toBe('ai_session.classified');
    expect(body.id).toBe(request.headers['webhook-id']);
    expect(body.data).toMatchObject({
      site_id: w.site.site_id,
      ai_source: 'chatgpt',
      source_kind: 'ai',
      entry_url: 'https://shop.example/pricing',
    });
    expect(aiSessionClassifiedEvent.safeParse(body).success).toBe(true);
    expect(Number(request.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);

    const [ping, row] = await deliveryRows(w.t, hook.id);
    expect(ping?.event_type).toBe('webhook.ping');
    expect(row).toMatchObject({
      event_type: 'ai_session.classified',
      envelope_id: body.id,
      dedupe_key: body.data.visit_id,
      status: 'succeeded',
      attempt_count: 1,
      response_status: 204,
      last_error: null,
      next_attempt_at: null,
      payload: request.body,
    });
    expect(await deliveryRows(w.t, conversionsOnly.id)).toHaveLength(1);
    expect(await deliveryRows(w.t, disabled.id)).toHaveLength(1);

    // Nothing left: a second pass sends nothing again.
    expect(await run()).toMatchObject({ dispatched: { facts: 0 }, attempted: 0 });
    expect(receiver.requests).toHaveLength(before + 1);
    for (const id of [hook.id, conversionsOnly.id, disabled.id]) await w.api.remove(id);
  });

  it('routes conversion.attributed to subscribers and never enqueues one fact twice', async () => {
    const both = await w.api.add(receiver.url, ['ai_session.classified', 'conversion.attributed']);
    const aiOnly = await w.api.add(`${receiver.url}?ai`);
    const fact = {
      site_id: w.siteId,
      id: newId(),
      type: 'conversion.attributed',
      dedupe_key: 'evt_123',
      payload: JSON.stringify({
        site_id: 'whatever the writer put',
        event_id: 'evt_123',
        event_name: 'signup',
        occurred_at: new Date().toISOString(),
        value_cents: 0,
        currency: 'USD',
        transaction_id: null,
        provider: null,
        renewal: null,
        refunded_cents: null,
        credits: { last_touch: [{ source: 'chatgpt', source_kind: 'ai', share: 1 }] },
      }),
      created_at: new Date(),
    };
    await w.t.database.db.insertInto('outbox_events').values(fact).execute();
    await run();
    // The same fact dispatched again (a crash between insert and mark, say) changes nothing.
    await w.t.database.db
      .updateTable('outbox_events')
      .set({ dispatched_at: null })
      .where('id', '=', fact.id)
      .execute();
    expect((await run()).dispatched).toEqual({ facts: 1, deliveries: 0 });

    const rows = (await deliveryRows(w.t, both.id)).filter(
      (row) => row.event_type === 'conversion.attributed',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe('succeeded');
    const body = JSON.parse(rows[0]?.payload ?? '{}');
    expect(body.data.site_id).toBe(w.site.site_id);
    expect(conversionAttributedEvent.safeParse(body).success).toBe(true);
    const delivered = receiver.requests.filter((request) => request.headers['webhook-id'] === body.id);
    expect(delivered).toHaveLength(1);
    expect(verifyReceived(delivered[0] as never, both.secret).data.event_name).toBe('signup');
    expect(await deliveryRows(w.t, aiOnly.id)).toHaveLength(1);
  });
});
