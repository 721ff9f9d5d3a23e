/**
 * GET /v1/sites/{siteId}/export against rows collected through the front doors
 * (site-export.dataset.ts): both formats field by field against the stored rows, person keys
 * left out, the window's edges, the record filter and csv quoting.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../lib/clock.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import {
  AWKWARD,
  day,
  type ExportDataset,
  expectedRecords as expectedOf,
  seedExportDataset,
  TRANSACTION,
} from './site-export.dataset.js';
import { csvRows, download, ndjsonLines } from './site-export.fixtures.js';

describe('GET /v1/sites/{siteId}/export: contract', () => {
  const t = useTestApp();
  let seeded: ExportDataset | undefined;

  const expectedRecords = async () => expectedOf(t, await data());
  const data = async () => {
    seeded ??= await seedExportDataset(t);
    return seeded;
  };
  /** A key of each test's own: exports are limited to ten a minute per credential. */
  let reader: Record<string, string>;
  beforeEach(async () => {
    reader = bearer((await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] })).api_key);
  });

  it('streams visits, then events, then payments, in time order, field by field (ndjson)', async () => {
    const { site, window } = await data();
    const response = await download(t, reader, site.snippet_key, window);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="touchtrail-${site.domain}-${window.from}-${window.to}.ndjson"`,
    );
    const expected = await expectedRecords();
    expect(ndjsonLines(response.body)).toEqual([
      ...expected.visits,
      ...expected.events,
      ...expected.payments,
    ]);

    // The stored rows are what the requests sent, not merely what the export read back.
    expect(expected.visits).toHaveLength(2);
    expect(expected.visits[0]).toMatchObject({
      source_kind: 'ai',
      session_ai_source: 'chatgpt',
      campaign: 'spring',
      utm_source: 'newsletter',
      utm_medium: 'email',
      entry_url: `https://${site.domain}/pricing?utm_source=newsletter&utm_medium=email&utm_campaign=spring`,
    });
    expect(expected.events.map((e) => [e.type, e.name])).toEqual([
      ['pageview', null],
      ['event', 'plan_chosen'],
      ['identify', null],
      ['event', 'signed_up'],
      ['event', 'payment'],
      ['event', 'payment'],
      ['pageview', null],
    ]);
    expect(expected.events[1]).toMatchObject({ properties: AWKWARD, value_minor: 1250, currency: 'EUR' });
    expect(expected.payments.map((p) => [p.transaction_id, p.amount, p.refunded_amount, p.renewal])).toEqual([
      [TRANSACTION, '49.99', '10.00', false],
      [expect.any(String), '1500', '0', true],
    ]);
    expect(expected.payments[0]).toMatchObject({ customer_id: 'cus_42', currency: 'EUR' });
  });

  it('never exports a person key', async () => {
    const { site, window } = await data();
    const { stored } = await expectedRecords();
    const keys = [...stored.events, ...stored.payments].flatMap((row) =>
      row.person_key ? [row.person_key] : [],
    );
    expect(keys.length).toBeGreaterThan(1);
    const queries: Record<string, string>[] = [
      {},
      { format: 'csv', records: 'events' },
      { format: 'csv', records: 'payments' },
    ];
    for (const query of queries) {
      const response = await download(t, reader, site.snippet_key, { ...window, ...query });
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain('person_key');
      for (const key of keys) expect(response.body).not.toContain(key);
    }
  });

  it('writes one record kind as RFC 4180 csv with a header row', async () => {
    const { site, window } = await data();
    const expected = await expectedRecords();
    for (const kind of ['visits', 'events', 'payments'] as const) {
      const response = await download(t, reader, site.snippet_key, {
        ...window,
        format: 'csv',
        records: kind,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="touchtrail-${site.domain}-${kind}-${window.from}-${window.to}.csv"`,
      );
      const [header, ...rows] = csvRows(response.body);
      const records = expected[kind].map(({ record: _record, ...fields }) => fields);
      expect(header).toEqual(Object.keys(records[0] ?? {}));
      expect(rows).toEqual(
        records.map((fields) =>
          Object.values(fields).map((value) =>
            value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value),
          ),
        ),
      );
    }
  });

  it('quotes commas, quotes and line breaks in csv cells', async () => {
    const { site, window } = await data();
    const payments = await download(t, reader, site.snippet_key, {
      ...window,
      format: 'csv',
      records: 'payments',
    });
    expect(payments.body).toContain(
      '\r\napi,"order, ""7""\nsecond line",payment,49.99,EUR,10.00,false,cus_42,',
    );
    const events = await download(t, reader, site.snippet_key, {
      ...window,
      format: 'csv',
      records: 'events',
    });
    expect(events.body).toContain(`,"${JSON.stringify(AWKWARD).replaceAll('"', '""')}",1250,EUR,browser\r\n`);
  });

  it('keeps to the window: the first and last millisecond in, the ones beside them out', async () => {
    const { site, window, start, end } = await data();
    const lines = ndjsonLines((await download(t, reader, site.snippet_key, window)).body);
    const times = lines.map((line) => String(line.started_at ?? line.occurred_at ?? line.paid_at));
    expect(times).toContain(start.toISOString());
    expect(times).toContain(new Date(end.getTime() - 1).toISOString());
    expect(times.every((time) => time >= start.toISOString() && time < end.toISOString())).toBe(true);

    const dayBefore = day(new Date(start.getTime() - DAY_MS));
    const before = ndjsonLines(
      (await download(t, reader, site.snippet_key, { from: dayBefore, to: dayBefore })).body,
    );
    expect(before.map((line) => line.record)).toEqual(['visit', 'event']);
    expect(before[0]).toMatchObject({ started_at: new Date(start.getTime() - 1).toISOString() });
  });

  it('exports only the record kinds named, in export order, each once', async () => {
    const { site, window } = await data();
    const expected = await expectedRecords();
    const response = await download(t, reader, site.snippet_key, {
      ...window,
      records: 'payments,visits,payments',
    });
    expect(ndjsonLines(response.body)).toEqual([...expected.visits, ...expected.payments]);
    const events = await download(t, reader, site.snippet_key, { ...window, records: 'events' });
    expect(ndjsonLines(events.body)).toEqual(expected.events);
  });

  it('defaults to the last 30 days, and a dashboard session may name the site by UUID', async () => {
    const { site, end } = await data();
    t.clock.set(new Date(end.getTime() + 12 * 3_600_000));
    const response = await download(t, { cookie: t.owner.cookie }, site.id);
    expect(response.statusCode, response.body).toBe(200);
    const today = day(t.clock.now());
    const from = day(new Date(t.clock.now().getTime() - 29 * DAY_MS));
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="touchtrail-${site.domain}-${from}-${today}.ndjson"`,
    );
    const records = ndjsonLines(response.body);
    expect(records.filter((line) => line.record === 'visit')).toHaveLength(4);
  });

  it('answers an empty file for a window without data', async () => {
    const { site } = await data();
    const response = await download(t, reader, site.snippet_key, {
      from: '2001-01-01',
      to: '2001-01-31',
      format: 'csv',
      records: 'visits',
    });
    expect(response.statusCode).toBe(200);
    expect(csvRows(response.body)).toHaveLength(1);
  });
});
