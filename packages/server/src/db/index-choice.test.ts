/**
 * Statements planned once per connection (the ingest functions force generic plans) are planned
 * without the table's statistics on a fresh database, where two indexes can look equally cheap.
 * These pin the index such a statement must get, whatever the statistics.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';

describe('index choice without statistics', () => {
  const t = useTestApp();

  const genericPlan = (statement: string, parameters: string) =>
    t.database.db.transaction().execute(async (trx) => {
      await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
      await sql.raw(`prepare checked as ${statement}`).execute(trx);
      const { rows } = await sql
        .raw<Record<string, string>>(`explain execute checked${parameters}`)
        .execute(trx);
      await sql`deallocate checked`.execute(trx);
      return rows.map((row) => Object.values(row)[0]).join('\n');
    });

  it("checks an ingested event's id against the primary key, not the export's time index", async () => {
    const plan = await genericPlan(
      'select true from events e where e.site_id = $1::uuid and e.event_id = $2::text limit 1',
      "('00000000-0000-0000-0000-000000000001', 'ev1')",
    );
    expect(plan).toContain('events_pkey');
  });

  it("reads the export's pages from its time index", async () => {
    const plan = await genericPlan(
      `select event_id from events where site_id = $1::uuid and occurred_at >= $2::timestamptz
         and occurred_at < $3::timestamptz and (occurred_at, event_id) > ($2::timestamptz, $4::text)
       order by occurred_at, event_id limit 2000`,
      "('00000000-0000-0000-0000-000000000001', '2026-01-01', '2026-02-01', '')",
    );
    expect(plan).toContain('events_site_occurred_idx');
  });
});
