import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { DAY_MS } from '../lib/clock.js';
import { buildGoalRollupDay } from '../reporting/rollups/goal-rollup-day.query.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { CONVERSION_RETENTION_DAYS } from './retention.js';

describe('conversion retention', () => {
  const t = useTestApp();

  const serverEvent = async (siteKey: string, eventId: string, timestamp: Date) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/server/events',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: siteKey, name: 'signup', event_id: eventId, timestamp: timestamp.toISOString() },
    });
    expect(response.statusCode).toBe(202);
  };
  const eventIds = async (siteId: string) =>
    (
      await t.database.db
        .selectFrom('events')
        .select(['event_id', 'type'])
        .where('site_id', '=', siteId)
        .orderBy('event_id')
        .execute()
    ).map((row) => `${row.type}:${row.event_id}`);
  const completions = async (siteId: string) =>
    (
      await t.database.db
        .selectFrom('daily_goal_completions')
        .select((eb) => eb.fn.sum<string>('completions').as('total'))
        .where('site_id', '=', siteId)
        .executeTakeFirstOrThrow()
    ).total.toString();

  /** Builds the goal rollups of every day the site has conversions on, as the rollup job does. */
  const buildGoalDays = async (siteId: string) => {
    const days = await t.database.db
      .selectFrom('events')
      .select(sql<string>`to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'))
      .distinct()
      .where('site_id', '=', siteId)
      .where('type', '=', 'event')
      .execute();
    for (const { day } of days) await buildGoalRollupDay(t.database.db, siteId, day, t.clock.now());
  };

  it('deletes conversion records a year after they happened and were received, and nothing else', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'kept.example.org' });
    const start = t.clock.now();
    await serverEvent(site.snippet_key, 'old', start);
    const visit = await collect(t, pageview(site.snippet_key, newVisitorId(), 'https://kept.example.org/'));
    expect(visit.statusCode).toBe(202);
    t.clock.advance(200 * DAY_MS);
    // A history imported late: it happened long ago but arrived 200 days after the start.
    await serverEvent(site.snippet_key, 'imported', new Date(start.getTime() - 300 * DAY_MS));
    await serverEvent(site.snippet_key, 'recent', t.clock.now());
    expect(await completions(site.id)).toBe('3');

    t.clock.advance((CONVERSION_RETENTION_DAYS - 200) * DAY_MS - 1000);
    expect((await t.app.services.retention.purgeExpiredConversions()).deleted).toBe(0);
    t.clock.advance(2000);
    // Not before the day's goal rollups are built: the reports read them once the record is gone.
    expect((await t.app.services.retention.purgeExpiredConversions()).deleted).toBe(0);
    await buildGoalDays(site.id);
    expect(await t.app.services.retention.purgeExpiredConversions()).toEqual({ deleted: 1, finished: true });

    const remaining = await eventIds(site.id);
    expect(remaining.filter((id) => id.startsWith('event:'))).toEqual(['event:imported', 'event:recent']);
    expect(remaining.filter((id) => id.startsWith('pageview:'))).toHaveLength(1);
    // The daily totals keep counting the deleted record.
    expect(await completions(site.id)).toBe('3');
  });

  it('works in bounded runs that resume where the last one stopped', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'bounded.example.org' });
    for (const id of ['a', 'b', 'c']) await serverEvent(site.snippet_key, id, t.clock.now());
    t.clock.advance((CONVERSION_RETENTION_DAYS + 1) * DAY_MS);
    await buildGoalDays(site.id);
    const run = () => t.app.services.retention.purgeExpiredConversions({ batchSize: 2, maxBatches: 1 });
    const conversionsLeft = async () =>
      (await t.database.db.selectFrom('events').select('event_id').where('type', '=', 'event').execute())
        .length;
    // The two conversions the first test kept are now over a year old too.
    expect(await conversionsLeft()).toBe(5);
    expect(await run()).toEqual({ deleted: 2, finished: false });
    expect(await conversionsLeft()).toBe(3);
    let finished = false;
    for (let i = 0; i < 10 && !finished; i++) finished = (await run()).finished;
    expect(finished).toBe(true);
    expect(await conversionsLeft()).toBe(0);
    expect(await eventIds(site.id)).toEqual([]);
  });
});
