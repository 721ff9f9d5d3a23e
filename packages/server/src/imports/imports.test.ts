/**
 * Imports through HTTP: each source's hand-written export is uploaded, worked by the import job,
 * and read back through the stats query, against the figures the fixture was written with; a
 * bad file fails with its line and keeps nothing; a retried upload is one import; a worker
 * stopped mid-file is taken over and ends with the same answer; removal takes every row away.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { IMPORT_LEASE_MS } from './import-job.js';
import {
  ga4Events,
  ga4Row,
  matomoCsv,
  matomoVisits,
  plausibleFiles,
  statsWithImports,
  umamiCsv,
  umamiRows,
  upload,
  zipOf,
} from './imports.fixtures.js';

describe('imports', () => {
  const t = useTestApp();
  const runJob = (options = {}) => t.app.services.importJobs.runImportsOnce(options);
  const getImport = async (site: string, id: string) => {
    const response = await t.request({
      method: 'GET',
      url: `/v1/sites/${site}/imports/${id}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(response.statusCode).toBe(200);
    return response.json().import;
  };
  const importFile = async (site: { snippet_key: string }, source: string, file: Buffer | string) => {
    const response = await upload(t, t.owner.apiKey, site.snippet_key, source, file);
    expect(response.statusCode, response.body).toBe(202);
    const { import: created } = response.json();
    expect(created).toMatchObject({ source, status: 'pending', error: null, date_range: null });
    await runJob();
    return getImport(site.snippet_key, created.id);
  };

  beforeAll(() => {
    t.clock.set(new Date('2026-01-05T09:00:00Z'));
  });

  describe('umami', () => {
    let site: Awaited<ReturnType<typeof insertSite>>;
    let imported: { id: string };
    const range = { date_range: ['2025-03-01', '2025-03-02'] };

    beforeAll(async () => {
      site = await insertSite(t, t.owner.accountId);
      imported = await importFile(site, 'umami', umamiCsv(umamiRows(site.domain)));
    });

    it('completes with its days, rows and refusals', async () => {
      expect(imported).toMatchObject({
        status: 'completed',
        date_range: ['2025-03-01', '2025-03-02'],
        kept_before: null,
        error: null,
        progress: { rows_read: 9, rows_refused: 1 },
      });
    });

    it('counts visits by the live rules: 30 minutes, the first hit’s source', async () => {
      // Day 1: A (2 pageviews, an event, 6 minutes), B (1 pageview), C twice (an hour apart);
      // day 2: D (1 pageview and an event, 1 minute). Bounces: B and both of C's visits.
      const byDay = await statsWithImports(t, t.owner.apiKey, {
        site_id: site.snippet_key,
        ...range,
        metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration', 'events'],
        dimensions: ['time:day'],
      });
      expect(byDay.meta.imports_included).toBe(true);
      expect(byDay.results).toEqual([
        { dimensions: ['2025-03-01'], metrics: [3, 4, 5, 75, 90, 1] },
        { dimensions: ['2025-03-02'], metrics: [1, 1, 1, 0, 60, 1] },
      ]);
      const total = await statsWithImports(t, t.owner.apiKey, {
        site_id: site.snippet_key,
        ...range,
        metrics: ['visitors', 'visits', 'views_per_visit', 'bounce_rate', 'visit_duration', 'conversions'],
      });
      expect(total.results).toEqual([{ dimensions: [], metrics: [4, 5, 1.2, 60, 84, 2] }]);
      expect(total.meta.approximate).toEqual(['visitors']);
    });

    it('finds the AI traffic in referrers and tags', async () => {
      const channels = await statsWithImports(t, t.owner.apiKey, {
        site_id: site.snippet_key,
        ...range,
        metrics: ['visits'],
        dimensions: ['visit:channel'],
      });
      expect(channels.results).toEqual([
        { dimensions: ['ai'], metrics: [2] },
        { dimensions: ['direct'], metrics: [2] },
        { dimensions: ['search'], metrics: [1] },
      ]);
      const assistants = await statsWithImports(t, t.owner.apiKey, {
        site_id: site.snippet_key,
        ...range,
        metrics: ['visits'],
        dimensions: ['visit:ai_source'],
        order_by: [['visit:ai_source', 'asc']],
      });
      expect(assistants.results).toEqual([
        { dimensions: ['chatgpt'], metrics: [1] },
        { dimensions: ['perplexity'], metrics: [1] },
        { dimensions: [null], metrics: [3] },
      ]);
    });

    it('breaks down by page, goal, entry page and device in our names', async () => {
      const ask = async (dimension: string, metrics: string[]) =>
        (
          await statsWithImports(t, t.owner.apiKey, {
            site_id: site.snippet_key,
            ...range,
            metrics,
            dimensions: [dimension],
            order_by: [[dimension, 'asc']],
          })
        ).results;
      expect(await ask('event:page', ['visitors', 'visits', 'pageviews'])).toEqual([
        { dimensions: ['/'], metrics: [2, 3, 3] },
        { dimensions: ['/blog/post'], metrics: [1, 1, 1] },
        { dimensions: ['/pricing'], metrics: [2, 2, 2] },
      ]);
      expect(await ask('event:goal', ['visitors', 'events'])).toEqual([
        { dimensions: ['signup'], metrics: [2, 2] },
      ]);
      expect(await ask('visit:entry_page', ['visits'])).toEqual([
        { dimensions: ['/'], metrics: [3] },
        { dimensions: ['/blog/post'], metrics: [1] },
        { dimensions: ['/pricing'], metrics: [1] },
      ]);
      expect(await ask('visit:device', ['visits'])).toEqual([
        { dimensions: ['desktop'], metrics: [2] },
        { dimensions: ['mobile'], metrics: [1] },
        { dimensions: ['tablet'], metrics: [2] },
      ]);
      expect(await ask('visit:browser', ['visits'])).toEqual([
        { dimensions: ['Chrome'], metrics: [1] },
        { dimensions: ['Firefox'], metrics: [2] },
        { dimensions: ['Microsoft Edge'], metrics: [1] },
        { dimensions: ['Safari'], metrics: [1] },
      ]);
      expect(await ask('visit:os', ['visits'])).toEqual([
        { dimensions: ['Android'], metrics: [2] },
        { dimensions: ['Windows'], metrics: [1] },
        { dimensions: ['iOS'], metrics: [1] },
        { dimensions: ['macOS'], metrics: [1] },
      ]);
    });

    it('says why a query cannot use them, and leaves them out unless asked', async () => {
      const reason = async (body: Record<string, unknown>) =>
        (
          await statsWithImports(t, t.owner.apiKey, {
            site_id: site.snippet_key,
            ...range,
            metrics: ['visits'],
            ...body,
          })
        ).meta;
      expect(await reason({ timezone: 'Europe/Berlin' })).toMatchObject({
        imports_included: false,
        imports_skipped_reason: 'unsupported_timezone',
      });
      expect((await reason({ dimensions: ['time:hour'] })).imports_skipped_reason).toBe(
        'unsupported_interval',
      );
      expect((await reason({ dimensions: ['visit:city'] })).imports_skipped_reason).toBe(
        'unsupported_dimension',
      );
      expect((await reason({ filters: [['is', 'visit:channel', ['ai']]] })).imports_skipped_reason).toBe(
        'unsupported_filter',
      );
      expect((await reason({ metrics: ['conversion_rate'] })).imports_skipped_reason).toBe(
        'unsupported_metric',
      );
      // Imports hold no money: revenue beside them is live revenue alone, and the visits add up.
      const withRevenue = await statsWithImports(t, t.owner.apiKey, {
        site_id: site.snippet_key,
        ...range,
        metrics: ['visits', 'revenue_net'],
        dimensions: ['visit:channel'],
      });
      expect(withRevenue.meta.imports_included).toBe(true);
      expect(withRevenue.results).toEqual([
        { dimensions: ['ai'], metrics: [2, 0] },
        { dimensions: ['direct'], metrics: [2, 0] },
        { dimensions: ['search'], metrics: [1, 0] },
      ]);
      expect((await reason({ date_range: ['2024-01-01', '2024-01-31'] })).imports_skipped_reason).toBe(
        'out_of_range',
      );
      const plain = await t.request({
        method: 'POST',
        url: '/v1/stats/query',
        headers: bearer(t.owner.apiKey),
        payload: { site_id: site.snippet_key, ...range, metrics: ['visits'] },
      });
      expect(plain.json().results).toEqual([{ dimensions: [], metrics: [0] }]);
      expect(plain.json().meta).not.toHaveProperty('imports_included');
    });

    it('is part of the site export, a line per day and value', async () => {
      const response = await t.request({
        method: 'GET',
        url: `/v1/sites/${site.snippet_key}/export?from=2025-03-01&to=2025-03-02`,
        headers: bearer(t.owner.apiKey),
      });
      expect(response.statusCode).toBe(200);
      const lines = response.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const { count } = await t.database.db
        .selectFrom('imported_days')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('site_id', '=', site.id)
        .executeTakeFirstOrThrow();
      expect(lines.length).toBe(Number(count));
      expect(lines).toContainEqual({
        record: 'imported_day',
        import_id: imported.id,
        source: 'umami',
        day: '2025-03-01',
        dimension: 'visit:ai_source',
        value: 'chatgpt',
        visitors: 1,
        visits: 1,
        pageviews: 2,
        bounces: 0,
        duration_seconds: 360,
        events: 1,
      });
      const csv = await t.request({
        method: 'GET',
        url: `/v1/sites/${site.snippet_key}/export?from=2025-03-01&to=2025-03-01&format=csv&records=imported_days`,
        headers: bearer(t.owner.apiKey),
      });
      expect(csv.body.split('\r\n')[0]).toBe(
        'import_id,source,day,dimension,value,visitors,visits,pageviews,bounces,duration_seconds,events',
      );
      expect(
        csv.body
          .trim()
          .split('\r\n')
          .slice(1)
          .every((line) => line.includes(',2025-03-01,')),
      ).toBe(true);
    });

    it('answers the same import for the same file uploaded again', async () => {
      const again = await upload(
        t,
        t.owner.apiKey,
        site.snippet_key,
        'umami',
        umamiCsv(umamiRows(site.domain)),
      );
      expect(again.statusCode).toBe(202);
      expect(again.json().import.id).toBe(imported.id);
      await runJob();
      const total = await statsWithImports(t, t.owner.apiKey, {
        site_id: site.snippet_key,
        ...range,
        metrics: ['visits'],
      });
      expect(total.results).toEqual([{ dimensions: [], metrics: [5] }]);
    });
  });

  describe('plausible', () => {
    let site: Awaited<ReturnType<typeof insertSite>>;
    const range = { date_range: ['2025-01-01', '2025-01-02'] };

    beforeAll(async () => {
      site = await insertSite(t, t.owner.accountId);
      const done = await importFile(site, 'plausible', await zipOf(plausibleFiles()));
      expect(done).toMatchObject({
        status: 'completed',
        date_range: ['2025-01-01', '2025-01-02'],
        error: null,
      });
    });

    it('reads each table of the export', async () => {
      const ask = async (metrics: string[], dimensions: string[] = []) =>
        (
          await statsWithImports(t, t.owner.apiKey, {
            site_id: site.snippet_key,
            ...range,
            metrics,
            dimensions,
            ...(dimensions.length > 0 ? { order_by: [[dimensions[0], 'asc']] } : {}),
          })
        ).results;
      expect(
        await ask(['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration', 'events']),
      ).toEqual([{ dimensions: [], metrics: [15, 18, 39, 33.3, 40, 5] }]);
      expect(await ask(['visits', 'pageviews'], ['visit:channel'])).toEqual([
        { dimensions: ['ai'], metrics: [11, 19] },
        { dimensions: ['direct'], metrics: [3, 8] },
        { dimensions: ['search'], metrics: [4, 12] },
      ]);
      expect(await ask(['visits'], ['visit:ai_source'])).toEqual([
        { dimensions: ['chatgpt'], metrics: [5] },
        { dimensions: ['perplexity'], metrics: [6] },
        { dimensions: [null], metrics: [7] },
      ]);
      expect(await ask(['visits'], ['visit:utm_campaign'])).toEqual([
        { dimensions: ['spring'], metrics: [6] },
        { dimensions: [null], metrics: [12] },
      ]);
      expect(await ask(['visitors', 'pageviews'], ['event:page'])).toEqual([
        { dimensions: ['/'], metrics: [7, 20] },
        { dimensions: ['/pricing'], metrics: [9, 19] },
      ]);
      expect(await ask(['visitors', 'events'], ['event:goal'])).toEqual([
        { dimensions: ['signup'], metrics: [4, 5] },
      ]);
      expect(await ask(['visits'], ['visit:country'])).toEqual([
        { dimensions: ['DE'], metrics: [4] },
        { dimensions: ['FR'], metrics: [6] },
        { dimensions: ['US'], metrics: [8] },
      ]);
      expect(await ask(['visits'], ['visit:device'])).toEqual([
        { dimensions: ['desktop'], metrics: [14] },
        { dimensions: ['mobile'], metrics: [4] },
      ]);
      expect(await ask(['visits'], ['visit:os'])).toEqual([
        { dimensions: ['Linux'], metrics: [6] },
        { dimensions: ['macOS'], metrics: [12] },
      ]);
      expect(await ask(['visits'], ['visit:exit_page'])).toEqual([
        { dimensions: ['/pricing'], metrics: [18] },
      ]);
      expect(await ask(['visits'], ['time:month'])).toEqual([{ dimensions: ['2025-01-01'], metrics: [18] }]);
    });

    it('adds live traffic of later days to the imported ones', async () => {
      t.clock.set(new Date('2025-01-03T10:00:00Z'));
      const response = await collect(
        t,
        pageview(site.snippet_key, newVisitorId(), `https://${site.domain}/pricing`),
      );
      expect(response.statusCode).toBe(202);
      t.clock.set(new Date('2026-01-05T09:00:00Z'));
      const total = await statsWithImports(t, t.owner.apiKey, {
        site_id: site.snippet_key,
        date_range: ['2025-01-01', '2025-01-03'],
        metrics: ['visits', 'pageviews', 'views_per_visit'],
      });
      expect(total.results).toEqual([{ dimensions: [], metrics: [19, 40, 2.11] }]);
    });
  });

  describe('ga4', () => {
    let site: Awaited<ReturnType<typeof insertSite>>;
    const range = { date_range: ['2025-05-10', '2025-05-10'] };

    beforeAll(async () => {
      site = await insertSite(t, t.owner.accountId);
      const file = `${ga4Events(site.domain).map(ga4Row).join('\n')}\n`;
      const done = await importFile(site, 'ga4', file);
      expect(done).toMatchObject({
        status: 'completed',
        date_range: ['2025-05-10', '2025-05-10'],
        progress: { rows_read: 10, rows_refused: 2 },
      });
    });

    it('counts visits, engaged time and AI sources from the events', async () => {
      const ask = async (metrics: string[], dimensions: string[] = []) =>
        (
          await statsWithImports(t, t.owner.apiKey, {
            site_id: site.snippet_key,
            ...range,
            metrics,
            dimensions,
            ...(dimensions.length > 0 ? { order_by: [[dimensions[0], 'asc']] } : {}),
          })
        ).results;
      // Bounces: u2 only (u4's download is an event); durations 45 + 3 + 20 + 60 seconds.
      expect(
        await ask(['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration', 'events']),
      ).toEqual([{ dimensions: [], metrics: [4, 4, 5, 25, 32, 2] }]);
      expect(await ask(['visits'], ['visit:channel'])).toEqual([
        { dimensions: ['ai'], metrics: [2] },
        { dimensions: ['direct'], metrics: [1] },
        { dimensions: ['search'], metrics: [1] },
      ]);
      expect(await ask(['visits'], ['visit:ai_source'])).toEqual([
        { dimensions: ['chatgpt'], metrics: [1] },
        { dimensions: ['perplexity'], metrics: [1] },
        { dimensions: [null], metrics: [2] },
      ]);
      expect(await ask(['visits'], ['visit:country'])).toEqual([
        { dimensions: ['DE'], metrics: [1] },
        { dimensions: ['FR'], metrics: [1] },
        { dimensions: ['GB'], metrics: [1] },
        { dimensions: ['US'], metrics: [1] },
      ]);
      expect(await ask(['visits'], ['visit:os'])).toEqual([
        { dimensions: ['Android'], metrics: [1] },
        { dimensions: ['Windows'], metrics: [1] },
        { dimensions: ['iOS'], metrics: [1] },
        { dimensions: ['macOS'], metrics: [1] },
      ]);
      expect(await ask(['visitors', 'events'], ['event:goal'])).toEqual([
        { dimensions: ['file_download'], metrics: [1, 1] },
        { dimensions: ['purchase'], metrics: [1, 1] },
      ]);
      expect(await ask(['pageviews'], ['event:page'])).toEqual([
        { dimensions: ['/'], metrics: [2] },
        { dimensions: ['/blog'], metrics: [1] },
        { dimensions: ['/pricing'], metrics: [2] },
      ]);
    });

    it('fails on a line that is not JSON, naming it', async () => {
      const other = await insertSite(t, t.owner.accountId);
      const lines = ga4Events(other.domain).map(ga4Row);
      lines[2] = '{"event_name": "page_view", ';
      const failed = await importFile(other, 'ga4', lines.join('\n'));
      expect(failed).toMatchObject({
        status: 'failed',
        error: { line: 3, message: 'the line is not valid JSON' },
      });
      lines[2] = ga4Row({ ...(ga4Events(other.domain)[2] as Parameters<typeof ga4Row>[0]) }).replace(
        /"event_timestamp":"\d+"/,
        '"event_timestamp":"soon"',
      );
      const badTime = await importFile(other, 'ga4', lines.join('\n'));
      expect(badTime.error).toEqual({
        line: 3,
        message: 'event_timestamp "soon" is not microseconds since 1970',
      });
    });
  });

  describe('matomo', () => {
    let site: Awaited<ReturnType<typeof insertSite>>;
    const range = { date_range: ['2025-06-01', '2025-06-01'] };

    beforeAll(async () => {
      site = await insertSite(t, t.owner.accountId);
      const done = await importFile(site, 'matomo', matomoCsv(matomoVisits(site.domain)));
      expect(done).toMatchObject({
        status: 'completed',
        date_range: ['2025-06-01', '2025-06-01'],
        error: null,
      });
    });

    it('reads each visit with its actions, in UTF-16 as Matomo writes it', async () => {
      const ask = async (metrics: string[], dimensions: string[] = []) =>
        (
          await statsWithImports(t, t.owner.apiKey, {
            site_id: site.snippet_key,
            ...range,
            metrics,
            dimensions,
            ...(dimensions.length > 0 ? { order_by: [[dimensions[0], 'asc']] } : {}),
          })
        ).results;
      // Durations 200 + 0 + 60 + 5 seconds; bounces: the campaign visit and the direct one.
      expect(
        await ask(['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration', 'events']),
      ).toEqual([{ dimensions: [], metrics: [4, 4, 5, 50, 66, 2] }]);
      expect(await ask(['visits'], ['visit:ai_source'])).toEqual([
        { dimensions: ['chatgpt'], metrics: [1] },
        { dimensions: ['perplexity'], metrics: [1] },
        { dimensions: [null], metrics: [2] },
      ]);
      expect(await ask(['visits'], ['visit:channel'])).toEqual([
        { dimensions: ['ai'], metrics: [2] },
        { dimensions: ['direct'], metrics: [1] },
        { dimensions: ['search'], metrics: [1] },
      ]);
      expect(await ask(['visits'], ['visit:utm_campaign'])).toEqual([
        { dimensions: ['spring'], metrics: [1] },
        { dimensions: [null], metrics: [3] },
      ]);
      expect(await ask(['events'], ['event:goal'])).toEqual([
        { dimensions: ['Signup'], metrics: [1] },
        { dimensions: ['file_download'], metrics: [1] },
      ]);
      expect(await ask(['visits'], ['visit:device'])).toEqual([
        { dimensions: ['desktop'], metrics: [2] },
        { dimensions: ['mobile'], metrics: [1] },
        { dimensions: ['tablet'], metrics: [1] },
      ]);
      expect(await ask(['pageviews'], ['event:page'])).toEqual([
        { dimensions: ['/'], metrics: [2] },
        { dimensions: ['/blog'], metrics: [1] },
        { dimensions: ['/pricing'], metrics: [2] },
      ]);
    });

    it('fails on a bad time with its line, in UTF-8 too', async () => {
      const other = await insertSite(t, t.owner.accountId);
      const visits = matomoVisits(other.domain);
      const text = matomoCsv(visits, { utf16: false })
        .toString()
        .replace(`,${Date.parse('2025-06-01T11:00:00Z') / 1000},`, ',noon,');
      const failed = await importFile(other, 'matomo', text);
      expect(failed.error).toEqual({
        line: 4,
        message: 'firstActionTimestamp "noon" is not a Unix time in seconds',
      });
    });
  });

  describe('files that cannot be read', () => {
    it('fails with the line and reason, and keeps nothing', async () => {
      const site = await insertSite(t, t.owner.accountId);
      const rows = umamiRows(site.domain);
      const csv = umamiCsv(rows).split('\n');
      csv[3] = csv[3]?.replace('2025-03-01 09:06:00', 'yesterday') ?? '';
      const failed = await importFile(site, 'umami', csv.join('\n'));
      expect(failed).toMatchObject({
        status: 'failed',
        date_range: null,
        error: { line: 4, message: 'created_at "yesterday" is not a date and time' },
      });
      const { rows: left } = await t.database.db
        .selectFrom('import_hits')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('import_id', '=', failed.id)
        .execute()
        .then((r) => ({ rows: r }));
      expect(Number(left[0]?.n)).toBe(0);

      const files = plausibleFiles();
      const name = Object.keys(files).find((file) => file.startsWith('imported_pages')) as string;
      files[name] = (files[name] as string).replace('/pricing,5,4,10', '/pricing,5,four,10');
      const badZip = await importFile(site, 'plausible', await zipOf(files, { compress: true }));
      expect(badZip.error).toEqual({ line: 3, message: `${name}: visitors "four" is not a whole number` });

      const notZip = await importFile(site, 'plausible', 'date,visitors\n2025-01-01,3\n');
      expect(notZip.status).toBe('failed');
      expect(notZip.error.line).toBeNull();
      expect(notZip.error.message).toMatch(/^the file is not a ZIP archive/);

      const header = await importFile(site, 'umami', 'session_id,created_at\nx,2025-01-01 00:00:00\n');
      expect(header.error).toEqual({ line: 1, message: 'the header has no column url_path, event_type' });
      const { count } = await t.database.db
        .selectFrom('imported_days')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('site_id', '=', site.id)
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBe(0);
    });

    it('refuses a bad source, an empty body, sources not read yet and other sites', async () => {
      const site = await insertSite(t, t.owner.accountId);
      const bad = await upload(t, t.owner.apiKey, site.snippet_key, 'excel', 'x');
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error).toBe('validation_failed');
      const empty = await upload(t, t.owner.apiKey, site.snippet_key, 'umami', '');
      expect(empty.statusCode).toBe(422);
      const rival = await insertAccount(t);
      const theirs = await insertSite(t, rival.accountId);
      expect((await upload(t, t.owner.apiKey, theirs.snippet_key, 'umami', 'a')).statusCode).toBe(404);
      const reader = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] });
      expect((await upload(t, reader.api_key, site.snippet_key, 'umami', 'a')).statusCode).toBe(403);
      const missing = await t.request({
        method: 'GET',
        url: `/v1/sites/${site.snippet_key}/imports/0b6c6c1e-2f4e-4d8a-9a51-1f0f0d5b8e21`,
        headers: bearer(t.owner.apiKey),
      });
      expect(missing.statusCode).toBe(404);
    });
  });

  describe('crashes, native days and removal', () => {
    it('a worker stopped mid-file is taken over and ends with the same figures', async () => {
      const site = await insertSite(t, t.owner.accountId);
      const response = await upload(
        t,
        t.owner.apiKey,
        site.snippet_key,
        'umami',
        umamiCsv(umamiRows(site.domain)),
      );
      const { id } = response.json().import;
      const first = await runJob({ batchRecords: 2, stopAfter: 5 });
      expect(first.stopped).toEqual([id]);
      const halfway = await getImport(site.snippet_key, id);
      expect(halfway).toMatchObject({ status: 'running', progress: { rows_read: 4 } });
      // Another worker waits out the lease, then resumes after the staged rows.
      expect((await runJob()).completed).toEqual([]);
      t.clock.advance(IMPORT_LEASE_MS + 1000);
      expect((await runJob()).completed).toEqual([id]);
      t.clock.set(new Date('2026-01-05T09:00:00Z'));
      const total = await statsWithImports(t, t.owner.apiKey, {
        site_id: site.snippet_key,
        date_range: ['2025-03-01', '2025-03-02'],
        metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration', 'events'],
        dimensions: ['time:day'],
      });
      expect(total.results).toEqual([
        { dimensions: ['2025-03-01'], metrics: [3, 4, 5, 75, 90, 1] },
        { dimensions: ['2025-03-02'], metrics: [1, 1, 1, 0, 60, 1] },
      ]);
    });

    it('keeps only the days before the site’s own traffic', async () => {
      const site = await insertSite(t, t.owner.accountId);
      t.clock.set(new Date('2025-03-02T07:00:00Z'));
      await collect(t, pageview(site.snippet_key, newVisitorId(), `https://${site.domain}/`));
      t.clock.set(new Date('2026-01-05T09:00:00Z'));
      const done = await importFile(site, 'umami', umamiCsv(umamiRows(site.domain)));
      expect(done).toMatchObject({
        status: 'completed',
        date_range: ['2025-03-01', '2025-03-01'],
        kept_before: '2025-03-02',
      });
      const byDay = await statsWithImports(t, t.owner.apiKey, {
        site_id: site.snippet_key,
        date_range: ['2025-03-01', '2025-03-02'],
        metrics: ['visits'],
        dimensions: ['time:day'],
      });
      expect(byDay.results).toEqual([
        { dimensions: ['2025-03-01'], metrics: [4] },
        { dimensions: ['2025-03-02'], metrics: [1] },
      ]);
    });

    it('cancels a running import and removes an ended one with its rows', async () => {
      const site = await insertSite(t, t.owner.accountId);
      const started = await upload(
        t,
        t.owner.apiKey,
        site.snippet_key,
        'umami',
        umamiCsv(umamiRows(site.domain)),
      );
      const { id } = started.json().import;
      await runJob({ batchRecords: 2, stopAfter: 3 });
      const cancel = await t.request({
        method: 'DELETE',
        url: `/v1/sites/${site.snippet_key}/imports/${id}`,
        headers: bearer(t.owner.apiKey),
      });
      expect(cancel.statusCode).toBe(204);
      expect((await getImport(site.snippet_key, id)).status).toBe('cancelled');
      t.clock.advance(IMPORT_LEASE_MS + 1000);
      expect((await runJob()).completed).toEqual([]);
      t.clock.set(new Date('2026-01-05T09:10:00Z'));

      const done = await importFile(site, 'umami', umamiCsv(umamiRows(site.domain)));
      expect(done.status).toBe('completed');
      const list = await t.request({
        method: 'GET',
        url: `/v1/sites/${site.snippet_key}/imports`,
        headers: bearer(t.owner.apiKey),
      });
      expect(list.json().imports.map((row: { id: string }) => row.id)).toEqual([done.id, id]);
      const removed = await t.request({
        method: 'DELETE',
        url: `/v1/sites/${site.snippet_key}/imports/${done.id}`,
        headers: bearer(t.owner.apiKey),
      });
      expect(removed.statusCode).toBe(204);
      const gone = await t.request({
        method: 'GET',
        url: `/v1/sites/${site.snippet_key}/imports/${done.id}`,
        headers: bearer(t.owner.apiKey),
      });
      expect(gone.statusCode).toBe(404);
      const after = await statsWithImports(t, t.owner.apiKey, {
        site_id: site.snippet_key,
        date_range: ['2025-03-01', '2025-03-02'],
        metrics: ['visits'],
      });
      expect(after.meta).toMatchObject({
        imports_included: false,
        imports_skipped_reason: 'no_imported_data',
      });
    });
  });
});
