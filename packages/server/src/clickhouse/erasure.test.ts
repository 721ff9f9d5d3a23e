/**
 * Erasure reaches ClickHouse: a person's erasure completes only once ClickHouse has deleted
 * every copy of their rows (and the earlier copies of events kept without them), others' rows
 * stay; an erased site leaves nothing in ClickHouse, and no queued deletion behind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../lib/clock.js';
import { type SeededPerson, seedPerson } from '../privacy/privacy.fixtures.js';
import { bearer, useTestApp } from '../test/app.js';
import { chdbInstalled, copyEverything } from '../test/clickhouse.js';
import { insertSite } from '../test/factories.js';
import type { ClickHouse } from './connection.js';
import { STREAMS } from './ship-batches.query.js';

describe.runIf(chdbInstalled)('erasure in ClickHouse', () => {
  const t = useTestApp({}, { clickhouse: true });
  let site: Awaited<ReturnType<typeof insertSite>>;
  let ada: SeededPerson;
  let bob: SeededPerson;
  const ch = () => t.clickhouse as ClickHouse;
  const shipAll = () => {
    const engine = t.app.services.clickhouseEngine;
    if (!engine) throw new Error('the app runs without ClickHouse');
    return copyEverything(t.database.db, engine.shipper);
  };

  /** Every stored copy (no FINAL: old versions count) of the visitors' rows in ClickHouse. */
  const copiesOf = async (visitors: string[]) => {
    let total = 0;
    for (const table of ['events', 'visits', 'identity_links'] as const) {
      const result = await ch().client.query({
        query: `SELECT count() AS n FROM ${ch().database}.${table}
          WHERE site_id = {site:UUID} AND has({visitors:Array(String)}, ifNull(visitor_id, ''))`,
        query_params: { site: site.id, visitors },
        format: 'JSONEachRow',
      });
      total += Number(((await result.json()) as { n: string }[])[0]?.n);
    }
    return total;
  };
  const siteCopies = async () => {
    let total = 0;
    for (const table of STREAMS) {
      const result = await ch().client.query({
        query: `SELECT count() AS n FROM ${ch().database}.${table} WHERE site_id = {site:UUID}`,
        query_params: { site: site.id },
        format: 'JSONEachRow',
      });
      total += Number(((await result.json()) as { n: string }[])[0]?.n);
    }
    return total;
  };

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'erase.example.com' });
    ada = await seedPerson(t, site, t.owner.apiKey, 'ada', new Date('2026-04-01T10:00:00Z'));
    bob = await seedPerson(t, site, t.owner.apiKey, 'bob', new Date('2026-04-01T11:00:00Z'));
    await t.app.services.attribution.runUntilIdle();
    await shipAll();
  });

  it('deletes every copy of the person before the request completes, and keeps the others', async () => {
    expect(await copiesOf(ada.visitors)).toBeGreaterThan(0);
    const bobBefore = await copiesOf(bob.visitors);
    expect(bobBefore).toBeGreaterThan(0);
    const response = await t.request({
      method: 'POST',
      url: '/v1/privacy/requests',
      headers: bearer(t.owner.apiKey),
      payload: {
        site_id: site.snippet_key,
        type: 'erasure',
        subject: { kind: 'user_id', value: ada.userId },
      },
    });
    expect(response.statusCode, response.body).toBe(202);
    const id = response.json().id as string;
    const run = await t.app.services.privacyJobs.runPrivacyOnce();
    expect(run, JSON.stringify(run)).toMatchObject({ completed: [id] });
    // Completed means ClickHouse has applied it: no copy left, not even one FINAL would hide.
    expect(await copiesOf(ada.visitors)).toBe(0);
    expect(await copiesOf(bob.visitors)).toBe(bobBefore);
    const queued = await t.database.db
      .selectFrom('clickhouse_deletions')
      .select('id')
      .where('site_id', '=', site.id)
      .execute();
    expect(queued).toEqual([]);
  });

  it('leaves nothing of an erased site', async () => {
    expect(await siteCopies()).toBeGreaterThan(0);
    const response = await t.request({
      method: 'DELETE',
      url: `/v1/sites/${site.snippet_key}`,
      headers: bearer(t.owner.apiKey),
      payload: { confirm_domain: site.domain },
    });
    expect(response.statusCode, response.body).toBe(200);
    t.clock.advance(31 * DAY_MS);
    for (let i = 0; i < 5; i++) await t.app.services.sites.runErasureOnce();
    expect(await t.database.db.selectFrom('sites').select('id').where('id', '=', site.id).execute()).toEqual(
      [],
    );
    expect(await siteCopies()).toBe(0);
    const queued = await t.database.db
      .selectFrom('clickhouse_deletions')
      .select('id')
      .where('site_id', '=', site.id)
      .execute();
    expect(queued).toEqual([]);
  });
});
