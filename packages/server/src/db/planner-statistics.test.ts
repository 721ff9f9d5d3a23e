/** The planner's statistics, which embedded PGlite gathers only when the worker asks. */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

describe('planner statistics', () => {
  const t = useTestApp();

  it('gathers statistics of the tables reports read', async () => {
    const site = await insertSite(t, t.owner.accountId);
    for (let i = 0; i < 3; i++) {
      const response = await collect(
        t,
        pageview(site.snippet_key, newVisitorId(), `https://${site.domain}/`),
      );
      expect(response.statusCode).toBe(202);
    }
    const columnsWithStatistics = async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stats where schemaname = 'public' and tablename = 'events'`.execute(
        t.database.db,
      );
      return rows[0]?.n ?? 0;
    };
    if (t.database.kind === 'pglite') expect(await columnsWithStatistics()).toBe(0);
    await t.app.services.plannerStatistics.refresh();
    expect(await columnsWithStatistics()).toBeGreaterThan(0);
  });
});
