/**
 * The ai_session.classified fact is built in SQL (sql/ingest/07_outbox.sql) and described by one
 * schema (aiSessionClassifiedEvent in webhooks/webhook-events.docs.ts): the two hold the same
 * keys with the same types, so the documentation cannot drift from what endpoints receive.
 */
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { aiSessionClassifiedEvent } from '../webhooks/webhook-events.docs.js';
import { collect, newVisitorId, pageview } from './ingest.fixtures.js';

describe('the ai_session.classified payload', () => {
  const t = useTestApp();

  it('is exactly what the documented schema describes', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'shop.example.com' });
    const response = await collect(
      t,
      pageview(
        site.snippet_key,
        newVisitorId(),
        'https://shop.example.com/?utm_campaign=launch',
        'https://chatgpt.com/',
      ),
    );
    expect(response.statusCode).toBe(202);
    const facts = await t.database.db
      .selectFrom('outbox_events')
      .select('payload')
      .where('site_id', '=', site.id)
      .where('type', '=', 'ai_session.classified')
      .execute();
    expect(facts).toHaveLength(1);
    const documented = aiSessionClassifiedEvent.shape.data.strict();
    const payload = documented.parse(facts[0]?.payload);
    expect(Object.keys(payload).sort()).toEqual(Object.keys(documented.shape).sort());
    expect(payload).toMatchObject({ site_id: site.snippet_key, ai_source: 'chatgpt', campaign: 'launch' });
  });
});
