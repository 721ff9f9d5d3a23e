import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { arrive, convert, identify, serverEvent } from './attribution.fixtures.js';
import { createAttributionWorker, MAX_ATTEMPTS, retryDelayMs } from './attribution.worker.js';

describe('attribution worker', () => {
  const t = useTestApp();

  let sites = 0;
  const newSite = () => insertSite(t, t.owner.accountId, { domain: `shop-${++sites}.example.com` });
  const worker = () => createAttributionWorker({ db: t.database.db, clock: t.clock });
  const creditsOf = async (siteId: string, eventId: string) =>
    (
      await t.database.db
        .selectFrom('attribution_credits')
        .select(['model', 'source', 'source_kind', 'share'])
        .where('site_id', '=', siteId)
        .where('event_id', '=', eventId)
        .orderBy('model')
        .orderBy('source')
        .execute()
    ).map((row) => ({ ...row, share: Number(row.share.toFixed(9)) }));
  const jobOf = (siteId: string, eventId: string) =>
    t.database.db
      .selectFrom('attribution_jobs')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
  const outboxOf = (siteId: string) =>
    t.database.db
      .selectFrom('outbox_events')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('type', '=', 'conversion.attributed')
      .execute();

  it('credits a goal conversion under all four models and queues conversion.attributed once', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    await arrive(t, site, vid, 'chatgpt');
    t.clock.advance(7 * DAY_MS);
    await arrive(t, site, vid, 'search');
    const eventId = await convert(t, site, vid, 'signup', { value: 12.5, currency: 'EUR' });

    const processed = await worker().runUntilIdle();
    expect(processed).toContainEqual({ siteId: site.id, eventId, outcome: 'done' });
    const decayOld = 2 ** -1 / (1 + 2 ** -1);
    expect(await creditsOf(site.id, eventId)).toEqual([
      { model: 'first_touch', source: 'chatgpt', source_kind: 'ai', share: 1 },
      { model: 'last_touch', source: 'search', source_kind: 'non_ai', share: 1 },
      { model: 'linear', source: 'chatgpt', source_kind: 'ai', share: 0.5 },
      { model: 'linear', source: 'search', source_kind: 'non_ai', share: 0.5 },
      { model: 'time_decay', source: 'chatgpt', source_kind: 'ai', share: Number(decayOld.toFixed(9)) },
      {
        model: 'time_decay',
        source: 'search',
        source_kind: 'non_ai',
        share: Number((1 - decayOld).toFixed(9)),
      },
    ]);
    expect(await jobOf(site.id, eventId)).toMatchObject({ status: 'done', attempts: 1, last_error: null });

    const [fact, ...more] = await outboxOf(site.id);
    expect(more).toEqual([]);
    expect(fact).toMatchObject({ dedupe_key: eventId });
    expect(fact?.payload).toMatchObject({
      site_id: site.snippet_key,
      event_id: eventId,
      event_name: 'signup',
      occurred_at: t.clock.now().toISOString(),
      value_cents: 1250,
      currency: 'EUR',
      // The payment facts are there, null, on a goal conversion.
      transaction_id: null,
      provider: null,
      renewal: null,
      refunded_cents: null,
      credits: {
        first_touch: [{ source: 'chatgpt', source_kind: 'ai', share: 1 }],
        last_touch: [{ source: 'search', source_kind: 'non_ai', share: 1 }],
        linear: [
          { source: 'chatgpt', source_kind: 'ai', share: 0.5 },
          { source: 'search', source_kind: 'non_ai', share: 0.5 },
        ],
      },
    });
    expect(await worker().runUntilIdle()).toEqual([]);
  });

  it('treats visitor ids linked to one person as one person, and looks back 30 days only', async () => {
    const site = await newSite();
    const [laptop, phone, stale] = [newVisitorId(), newVisitorId(), newVisitorId()];
    await arrive(t, site, stale, 'perplexity');
    await identify(t, site, stale, 'user-42');
    t.clock.advance(31 * DAY_MS);
    await arrive(t, site, phone, 'chatgpt');
    await identify(t, site, phone, 'user-42');
    t.clock.advance(2 * DAY_MS);
    await arrive(t, site, laptop, 'search');
    await identify(t, site, laptop, 'user-42');
    t.clock.advance(HOUR_MS);
    // A server event naming only the user: every linked visitor id counts, the stale visit does not.
    const eventId = await serverEvent(t, t.owner.apiKey, {
      site_id: site.snippet_key,
      name: 'upgrade',
      user_id: 'user-42',
    });
    // A visit after the conversion does not count either.
    t.clock.advance(HOUR_MS);
    await arrive(t, site, laptop, 'perplexity', '/later');

    await worker().runUntilIdle();
    const linear = (await creditsOf(site.id, eventId)).filter((credit) => credit.model === 'linear');
    expect(linear.map((credit) => [credit.source, credit.share])).toEqual([
      ['chatgpt', 0.5],
      ['search', 0.5],
    ]);
  });

  it('stores no credits for a conversion without visits, and still reports it', async () => {
    const site = await newSite();
    const eventId = await serverEvent(t, t.owner.apiKey, {
      site_id: site.snippet_key,
      name: 'lead',
      value: 3,
    });
    await worker().runUntilIdle();
    expect(await creditsOf(site.id, eventId)).toEqual([]);
    expect(await jobOf(site.id, eventId)).toMatchObject({ status: 'done' });
    const [fact] = await outboxOf(site.id);
    expect(fact?.payload).toMatchObject({
      value_cents: 300,
      currency: 'USD',
      credits: { first_touch: [], last_touch: [], linear: [], time_decay: [] },
    });
  });

  it('commits nothing of a job that fails midway and completes it on the retry', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    await arrive(t, site, vid, 'chatgpt');
    const eventId = await convert(t, site, vid, 'signup');
    let failures = 1;
    const crashing = createAttributionWorker({
      db: t.database.db,
      clock: t.clock,
      hooks: {
        afterCredits: () => {
          if (failures-- > 0) throw new Error('worker died after writing credits');
        },
      },
    });

    const [first] = await crashing.runAttributionBatch({ limit: 10 });
    expect(first).toMatchObject({ eventId, outcome: 'retrying', error: 'worker died after writing credits' });
    expect(await creditsOf(site.id, eventId)).toEqual([]);
    expect(await outboxOf(site.id)).toEqual([]);
    const job = await jobOf(site.id, eventId);
    expect(job).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'worker died after writing credits',
    });
    expect(job.run_after.getTime()).toBe(t.clock.now().getTime() + retryDelayMs(1));

    expect(await crashing.runAttributionBatch()).toEqual([]);
    t.clock.advance(retryDelayMs(1));
    expect(await crashing.runAttributionBatch()).toEqual([{ siteId: site.id, eventId, outcome: 'done' }]);
    expect((await creditsOf(site.id, eventId)).map((credit) => credit.source)).toEqual([
      'chatgpt',
      'chatgpt',
      'chatgpt',
      'chatgpt',
    ]);
    expect(await outboxOf(site.id)).toHaveLength(1);
    expect(await jobOf(site.id, eventId)).toMatchObject({ status: 'done', attempts: 2, last_error: null });
  });

  it('records a database failure by its code, without the values it quotes', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    await arrive(t, site, vid, 'chatgpt');
    const eventId = await convert(t, site, vid, 'signup');
    const failing = createAttributionWorker({
      db: t.database.db,
      clock: t.clock,
      hooks: {
        afterCredits: (_job, trx) => sql`select ${'alice@example.com'}::int`.execute(trx).then(() => {}),
      },
    });
    const [outcome] = await failing.runAttributionBatch();
    expect(outcome).toMatchObject({ eventId, outcome: 'retrying', error: 'database error 22P02' });
    expect(await jobOf(site.id, eventId)).toMatchObject({ last_error: 'database error 22P02' });
    t.clock.advance(retryDelayMs(1));
    expect(await worker().runAttributionBatch()).toEqual([{ siteId: site.id, eventId, outcome: 'done' }]);
  });

  it('backs off exponentially and gives up after the last attempt', async () => {
    expect([1, 2, 3, 7, 8, 20].map(retryDelayMs)).toEqual([
      30_000, 60_000, 120_000, 1_920_000, 3_600_000, 3_600_000,
    ]);
    const site = await newSite();
    const now = t.clock.now();
    // A job whose event never arrives.
    await t.database.db
      .insertInto('attribution_jobs')
      .values({ site_id: site.id, event_id: 'ghost', run_after: now, created_at: now, last_error: null })
      .execute();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const [outcome] = await worker().runAttributionBatch();
      expect(outcome?.outcome).toBe(attempt < MAX_ATTEMPTS ? 'retrying' : 'failed');
      t.clock.advance(HOUR_MS);
    }
    expect(await jobOf(site.id, 'ghost')).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      last_error: 'conversion event ghost not found',
    });
    expect(await worker().runUntilIdle()).toEqual([]);
  });
});
