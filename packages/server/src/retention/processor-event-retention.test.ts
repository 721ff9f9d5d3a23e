/**
 * Processor event ids go 90 days after they arrived; refund markers (`refund:` ids of refunds a
 * processor describes on their own) stay, so an old refund replayed never counts twice.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../lib/clock.js';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { PROCESSOR_EVENT_RETENTION_DAYS } from './retention.js';

describe('processor event retention', () => {
  const t = useTestApp();

  it('deletes event ids older than 90 days, in batches, and keeps refund markers and recent ids', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'processor-retention.example.com' });
    const now = t.clock.now().getTime();
    const at = (daysAgo: number) => new Date(now - daysAgo * DAY_MS);
    const rows = [
      { event_id: 'evt_old_1', received_at: at(PROCESSOR_EVENT_RETENTION_DAYS + 1) },
      { event_id: 'evt_old_2', received_at: at(400) },
      { event_id: 'evt_old_3', received_at: at(PROCESSOR_EVENT_RETENTION_DAYS + 0.01) },
      { event_id: 'refund:adj_old', received_at: at(400) },
      { event_id: 'evt_recent', received_at: at(PROCESSOR_EVENT_RETENTION_DAYS - 0.01) },
    ];
    await t.database.db
      .insertInto('processor_events')
      .values(rows.map((row) => ({ ...row, site_id: site.id, provider: 'paddle' })))
      .execute();

    const first = await t.app.services.retention.purgeOldProcessorEvents({ batchSize: 2, maxBatches: 1 });
    expect(first).toEqual({ deleted: 2, finished: false });
    const rest = await t.app.services.retention.purgeOldProcessorEvents({ batchSize: 2 });
    expect(rest).toEqual({ deleted: 1, finished: true });
    const left = await t.database.db
      .selectFrom('processor_events')
      .select('event_id')
      .where('site_id', '=', site.id)
      .orderBy('event_id')
      .execute();
    expect(left.map((row) => row.event_id)).toEqual(['evt_recent', 'refund:adj_old']);
  });
});
