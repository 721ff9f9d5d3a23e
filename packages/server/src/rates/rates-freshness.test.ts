/**
 * How fresh the stored rates are, as the conversion listing reports it: the newest stored day,
 * and stale when none is stored or the newest is more than seven days before today.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { newestRateDay } from './newest-rate-day.query.js';

describe('newest stored rate', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  const freshness = async () => {
    const response = await t.request({
      method: 'GET',
      url: `/v1/conversions?site_id=${site.id}`,
      headers: { cookie: t.owner.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { rates_as_of, rates_stale } = response.json();
    return { rates_as_of, rates_stale };
  };

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'rates-freshness.example.com' });
    await t.database.db.deleteFrom('exchange_rates').execute();
    t.clock.set(new Date('2026-05-20T08:00:00Z'));
  });

  it('is none, and stale, when no rate is stored', async () => {
    expect(await newestRateDay(t.database.db)).toBeNull();
    expect(await freshness()).toEqual({ rates_as_of: null, rates_stale: true });
  });

  it('is the newest day of any currency; stale only past seven days', async () => {
    await t.database.db
      .insertInto('exchange_rates')
      .values([
        { day: '2026-05-11', currency: 'USD', per_euro: 1.1 },
        { day: '2026-05-13', currency: 'GBP', per_euro: 0.85 },
      ])
      .execute();
    expect(await newestRateDay(t.database.db)).toBe('2026-05-13');
    expect(await freshness()).toEqual({ rates_as_of: '2026-05-13', rates_stale: false });
    t.clock.set(new Date('2026-05-21T00:00:00Z'));
    expect(await freshness()).toEqual({ rates_as_of: '2026-05-13', rates_stale: true });
  });
});
