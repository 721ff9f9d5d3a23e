import { describe, expect, it } from 'vitest';
import { collect, GOOGLEBOT_UA, newEventId, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { startPeriodicJob } from '../jobs/periodic.js';
import { newSnippetKey } from '../lib/ids.js';
import { recentRefusals } from '../sites/site-refusals.js';
import { bearer, type TestApp, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

const REMOTE = '203.0.113.7';
const TOKEN = 'scrape-token-0123456789abcdef';

/** The samples of a Prometheus text answer, by series (`name{labels}`). */
function samplesOf(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

async function scrape(
  t: TestApp,
  options: { remoteAddress?: string; headers?: Record<string, string> } = {},
) {
  const response = await t.request({ method: 'GET', url: '/metrics', ...options });
  expect(response.statusCode, response.body).toBe(200);
  return samplesOf(response.body);
}

describe('GET /metrics', () => {
  const t = useTestApp({ INGEST_RATE_LIMIT: '20' });

  it('counts known traffic: requests by route pattern, items by outcome and drop reason, batches', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'shop.example.com' });
    const before = await scrape(t);
    const vid = newVisitorId();
    const send = (payload: Record<string, unknown>, userAgent?: string) =>
      collect(t, payload, userAgent ? { userAgent } : {});
    const eid = newEventId();
    const answers = [
      await send({ ...pageview(site.snippet_key, vid, 'https://shop.example.com/'), eid }),
      await send(pageview(site.snippet_key, vid, 'https://shop.example.com/pricing')),
      await send(pageview(site.snippet_key, vid, 'https://shop.example.com/about')),
      await send({ ...pageview(site.snippet_key, vid, 'https://shop.example.com/'), eid }),
      await send(pageview(site.snippet_key, newVisitorId(), 'https://shop.example.com/'), GOOGLEBOT_UA),
      await send({ type: 'pageview', site: site.snippet_key }),
      await send(pageview(newSnippetKey(), vid, 'https://shop.example.com/')),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202, 202, 202, 202, 422, 404]);
    await t.request({ method: 'GET', url: `/v1/sites/${site.id}`, headers: { cookie: t.owner.cookie } });
    await t.request({ method: 'GET', url: '/no/such/page', headers: { accept: 'application/json' } });

    const after = await scrape(t);
    const delta = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
    expect({
      recorded: delta('touchtrail_ingest_items_total{outcome="recorded"}'),
      duplicate: delta('touchtrail_ingest_items_total{outcome="duplicate"}'),
      dropped: delta('touchtrail_ingest_items_total{outcome="dropped"}'),
      failed: delta('touchtrail_ingest_items_total{outcome="failed"}'),
      bot: delta('touchtrail_ingest_dropped_total{reason="bot"}'),
      invalid: delta('touchtrail_ingest_dropped_total{reason="invalid"}'),
      unknownSite: delta('touchtrail_ingest_dropped_total{reason="unknown_site"}'),
      rateLimited: delta('touchtrail_ingest_dropped_total{reason="rate_limited"}'),
      accepted: delta('touchtrail_http_requests_total{method="POST",route="/v1/collect",status="202"}'),
      refused: delta('touchtrail_http_requests_total{method="POST",route="/v1/collect",status="422"}'),
      site: delta('touchtrail_http_requests_total{method="GET",route="/v1/sites/:siteId",status="200"}'),
      unmatched: delta('touchtrail_http_requests_total{method="GET",route="unmatched",status="404"}'),
    }).toEqual({
      recorded: 3,
      duplicate: 1,
      dropped: 3,
      failed: 0,
      bot: 1,
      invalid: 1,
      unknownSite: 1,
      rateLimited: 0,
      accepted: 5,
      refused: 1,
      site: 1,
      unmatched: 1,
    });
    // Series are named by route pattern only: no site id, no address asked for.
    expect(
      [...after.keys()].filter((series) => series.includes(site.id) || series.includes('/no/such')),
    ).toEqual([]);
    // The five items that reached the batch writer, in one batch or more.
    expect(delta('touchtrail_ingest_batch_items_sum')).toBe(5);
    expect(delta('touchtrail_ingest_batch_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(
      delta('touchtrail_http_request_duration_seconds_count{method="POST",route="/v1/collect",status="202"}'),
    ).toBe(5);
    // The bot is still counted for the site's install card.
    expect(await recentRefusals(t.database.db, site.id, t.clock.now())).toEqual([{ reason: 'bot', hits: 1 }]);
  });

  it('counts server events like tracker payloads, a refused timestamp as invalid', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const before = await scrape(t);
    const post = (payload: Record<string, unknown>) =>
      t.request({
        method: 'POST',
        url: '/v1/server/events',
        headers: bearer(t.owner.apiKey),
        payload: { site_id: site.snippet_key, name: 'signup', ...payload },
      });
    const ahead = new Date(t.clock.now().getTime() + 2 * 24 * 3600 * 1000).toISOString();
    const statuses = [
      (await post({ event_id: 'srv-metrics-1' })).statusCode,
      (await post({ event_id: 'srv-metrics-1' })).statusCode,
      (await post({ timestamp: ahead })).statusCode,
    ];
    expect(statuses).toEqual([202, 202, 422]);
    const after = await scrape(t);
    const delta = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
    expect({
      recorded: delta('touchtrail_ingest_items_total{outcome="recorded"}'),
      duplicate: delta('touchtrail_ingest_items_total{outcome="duplicate"}'),
      invalid: delta('touchtrail_ingest_dropped_total{reason="invalid"}'),
    }).toEqual({ recorded: 1, duplicate: 1, invalid: 1 });
  });

  it('answers the queue depths, the process figures and every outcome from the first scrape', async () => {
    const response = await t.request({ method: 'GET', url: '/metrics' });
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const samples = samplesOf(response.body);
    for (const queue of [
      'webhook_deliveries',
      'outbox_events',
      'attribution_jobs',
      'privacy_requests',
      'site_erasures',
    ])
      expect(samples.get(`touchtrail_queue_depth{queue="${queue}"}`), queue).toBeTypeOf('number');
    for (const reason of ['rate_limited', 'too_large', 'invalid', 'bot', 'unknown_site', 'site_deleted'])
      expect(samples.get(`touchtrail_ingest_dropped_total{reason="${reason}"}`), reason).toBeTypeOf('number');
    expect(samples.get('touchtrail_ingest_items_waiting')).toBe(0);
    expect(samples.get('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(samples.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('counts the runs of named background jobs, failed ones apart', async () => {
    const before = await scrape(t);
    let runs = 0;
    const finished = new Promise<void>((resolve) => {
      const job = startPeriodicJob({
        name: 'metrics-test',
        intervalMs: 1,
        run: async () => {
          runs += 1;
          if (runs === 2) throw new Error('second run fails');
          if (runs === 3) void job.stop().then(resolve);
        },
        onError: () => undefined,
      });
    });
    await finished;
    const after = await scrape(t);
    const delta = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
    expect({
      ok: delta('touchtrail_job_runs_total{job="metrics-test",result="ok"}'),
      failed: delta('touchtrail_job_runs_total{job="metrics-test",result="failed"}'),
      timed: delta('touchtrail_job_duration_seconds_count{job="metrics-test"}'),
    }).toEqual({ ok: 2, failed: 1, timed: 3 });
  });

  it('counts collect requests over the rate limit as dropped items', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const before = await scrape(t);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const response = await t.request({
        method: 'POST',
        url: '/v1/collect',
        remoteAddress: '198.51.100.20',
        headers: { 'content-type': 'text/plain', 'user-agent': GOOGLEBOT_UA },
        payload: JSON.stringify({
          eid: newEventId(),
          ...pageview(site.snippet_key, newVisitorId(), 'https://shop.example.com/'),
        }),
      });
      statuses.push(response.statusCode);
    }
    const limited = statuses.filter((status) => status === 429).length;
    expect(limited).toBeGreaterThan(0);
    const after = await scrape(t);
    expect(
      (after.get('touchtrail_ingest_dropped_total{reason="rate_limited"}') ?? 0) -
        (before.get('touchtrail_ingest_dropped_total{reason="rate_limited"}') ?? 0),
    ).toBe(limited);
  });

  it('is open from the loopback, and 404 to anyone else while METRICS_TOKEN is unset', async () => {
    expect((await t.request({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(200);
    const remote = await t.request({ method: 'GET', url: '/metrics', remoteAddress: REMOTE });
    expect(remote.statusCode).toBe(404);
    expect(remote.json()).toMatchObject({ error: 'not_found' });
    // A proxy on this machine forwards its clients from the loopback: they are not local.
    const forwarded = await t.request({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': REMOTE },
    });
    expect(forwarded.statusCode).toBe(404);
    const withToken = await t.request({
      method: 'GET',
      url: '/metrics',
      remoteAddress: REMOTE,
      headers: bearer(TOKEN),
    });
    expect(withToken.statusCode).toBe(404);
  });
});

describe('GET /metrics with METRICS_TOKEN set', () => {
  const t = useTestApp({ METRICS_TOKEN: TOKEN }, { owner: false });

  it('asks a caller off the loopback for the token: 401 without it or with another', async () => {
    const as = (headers: Record<string, string>) =>
      t.request({ method: 'GET', url: '/metrics', remoteAddress: REMOTE, headers });
    const missing = await as({});
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ error: 'unauthorized' });
    expect(missing.body).not.toContain('touchtrail_');
    expect((await as(bearer(`${TOKEN}x`))).statusCode).toBe(401);
    expect((await as(bearer('short'))).statusCode).toBe(401);
    expect((await as({ authorization: TOKEN })).statusCode).toBe(401);
    const right = await as(bearer(TOKEN));
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('# TYPE touchtrail_ingest_items_total counter');
    expect((await t.request({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    const forwarded = await t.request({
      method: 'GET',
      url: '/metrics',
      headers: { forwarded: `for=${REMOTE}` },
    });
    expect(forwarded.statusCode).toBe(401);
  });
});

describe('GET /metrics in a split role', () => {
  const t = useTestApp({}, { role: 'worker', owner: false });

  it('is answered by every role, each process for itself', async () => {
    await scrape(t);
  });
});
