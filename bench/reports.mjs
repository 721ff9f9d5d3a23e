/**
 * `npm run bench:reports`: the goal reports against 1,000,000 events on one site. A throwaway
 * PostgreSQL database, the built server, one account and site made over HTTP, then the rows
 * seeded with SQL (ingest over HTTP would take far longer than the reads being measured), then
 * sequential requests per report. Prints p50/p99 against their targets (bench/RESULTS.md, "Goal reports").
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createThrowawayDatabase } from './ingest-db.mjs';
import { currentLoad, describeMachine, runBenchmark, startBuiltServer } from './lib.mjs';

const DAY_MS = 86_400_000;
const SEED_DAYS = 60;
const REPORT_DAYS = 30;
const VISITORS = 100_000;
const VISITS_PER_VISITOR = 3;
const PAGEVIEWS_PER_VISIT = 3;
const TOTAL_EVENTS = 1_000_000;
// Visits × pageviews = 900,000; the conversions make up the rest of the million.
const CONVERSIONS = TOTAL_EVENTS - VISITORS * VISITS_PER_VISITOR * PAGEVIEWS_PER_VISIT;
// A fifth of the visitors are signed in; 15,000 people so that some have several visitor ids.
const LINKED_VISITORS = 20_000;
const PEOPLE = 15_000;
// Completions sent by a server with only a person key (no visitor id).
const SERVER_CONVERSIONS = 2_000;
// Weights of the goals among conversions; `signup` is the one reported on.
const GOALS = [
  ['signup', 40],
  ['add_to_cart', 25],
  ['purchase', 15],
  ['newsletter', 12],
  ['download', 8],
];
const REPORTED_GOAL = 'signup';
const WARMUP_RUNS = 3;
const MEASURED_RUNS = 30;
// Goal reads allow 120 a minute per credential; each report gets its own key to stay under it.
const READ_SCOPE = 'stats:read';

const dayOf = (date) => date.toISOString().slice(0, 10);

async function postJson(url, body, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

/** The first account, one site and one read key per report (see READ_SCOPE). */
async function createBenchSite(baseUrl, setupToken, keyCount) {
  const { api_key: apiKey } = await postJson(`${baseUrl}/v1/setup`, {
    setup_token: setupToken,
    email: 'bench@example.com',
    password: 'a bench password',
  });
  const auth = { authorization: `Bearer ${apiKey}` };
  const site = await postJson(`${baseUrl}/v1/sites`, { domain: 'bench.example.com' }, auth);
  const readKeys = [];
  for (let index = 0; index < keyCount; index += 1) {
    const key = await postJson(
      `${baseUrl}/v1/account/keys`,
      { name: `bench reads ${index + 1}`, scopes: [READ_SCOPE] },
      auth,
    );
    readKeys.push(key.api_key);
  }
  return { snippetKey: site.snippet_key, readKeys };
}

/**
 * The rows ingest would have written: visits three per visitor in 20-day slices of the 60 days
 * (the first is the new one), three pageviews each, conversions inside visits with a handful
 * of properties, identity links, server completions with only a person key, and the goals and
 * rollups derived from them with grouped inserts.
 */
function seedStatements(siteId, now) {
  const site = `'${siteId}'::uuid`;
  const seedStart = `'${new Date(now.getTime() - SEED_DAYS * DAY_MS).toISOString()}'::timestamptz`;
  const sliceDays = SEED_DAYS / VISITS_PER_VISITOR;
  const goalCase = GOALS.reduce(
    (acc, [name, weight]) => {
      const upper = acc.upper + weight;
      return { upper, sql: `${acc.sql} when g < ${upper} then '${name}'` };
    },
    { upper: 0, sql: '' },
  ).sql;
  return [
    `create temporary table seed_visits as
       select i as idx, gen_random_uuid() as id, 'bv_' || ((i - 1) % ${VISITORS}) as visitor_id,
              (i - 1) / ${VISITORS} as slice,
              ${seedStart} + (((i - 1) / ${VISITORS}) * ${sliceDays} + random() * ${sliceDays - 0.1}) * interval '1 day' as started_at,
              (60 + random() * 1740)::int as length_s
       from generate_series(1, ${VISITORS * VISITS_PER_VISITOR}) as i`,
    `insert into visits (site_id, id, visitor_id, started_at, last_activity_at, entry_url, source_kind,
       session_ai_source, source_name, source_key, campaign, ref, device_type, os, browser, country_code,
       city, pageviews, engaged_seconds, is_new)
     select ${site}, id, visitor_id, started_at, started_at + length_s * interval '1 second',
       'https://bench.example.com/page/' || (idx % 40),
       (array['ai', 'non_ai', 'non_ai', 'unknown'])[1 + idx % 4],
       (array['chatgpt', 'search', 'social', 'direct'])[1 + idx % 4],
       (array['ChatGPT', 'Google', 'Reddit', ''])[1 + idx % 4],
       (array['ai:chatgpt', 'search:google', 'social:reddit', ''])[1 + idx % 4],
       case when idx % 10 = 0 then 'autumn' else '' end, '',
       (array['desktop', 'mobile', 'tablet'])[1 + idx % 3], (array['macOS', 'Windows', 'iOS', 'Android'])[1 + idx % 4],
       (array['Chrome', 'Safari', 'Firefox'])[1 + idx % 3], (array['DE', 'FR', 'US', 'JP', 'BR'])[1 + idx % 5],
       (array['Berlin', 'Paris', 'Austin', 'Osaka', 'Recife'])[1 + idx % 5],
       ${PAGEVIEWS_PER_VISIT}, length_s / 2, slice = 0
     from seed_visits`,
    `insert into events (site_id, event_id, type, visitor_id, visit_id, occurred_at, received_at, url, origin)
     select ${site}, 'pv_' || v.idx || '_' || n, 'pageview', v.visitor_id, v.id, t, t,
       'https://bench.example.com/page/' || ((v.idx + n) % 40), 'browser'
     from seed_visits v cross join generate_series(1, ${PAGEVIEWS_PER_VISIT}) as n
     cross join lateral (select v.started_at + (n - 1) * v.length_s / ${PAGEVIEWS_PER_VISIT} * interval '1 second' as t) ts`,
    `insert into events (site_id, event_id, type, name, visitor_id, visit_id, occurred_at, received_at, url,
       properties, value_minor, currency, origin)
     select ${site}, 'cv_' || c.i, 'event', c.name, v.visitor_id, v.id, c.t, c.t,
       'https://bench.example.com/page/' || (c.i % 40),
       jsonb_build_object('plan', (array['free', 'pro', 'team', 'enterprise'])[1 + c.i % 4],
         'variant', (array['a', 'b', 'c'])[1 + c.i % 3], 'page', '/page/' || (c.i % 40),
         'button', 'cta_' || (c.i % 8), 'logged_in', c.i % 2 = 0),
       case when c.name = 'purchase' then 1000 + c.i % 9000 end,
       case when c.name = 'purchase' then 'EUR' end, 'browser'
     from (
       select i, 1 + (i * 7919) % ${VISITORS * VISITS_PER_VISITOR} as visit_idx, random() as at_fraction,
         case ${goalCase} end as name
       from generate_series(1, ${CONVERSIONS - SERVER_CONVERSIONS}) as i
       cross join lateral (select (i * 37) % 100 as g) as pick
     ) picked
     join seed_visits v on v.idx = picked.visit_idx
     cross join lateral (select picked.i, picked.name,
       v.started_at + picked.at_fraction * v.length_s * interval '1 second' as t) c`,
    `insert into identity_links (site_id, person_key, visitor_id, created_at)
     select ${site}, 'u:' || encode(sha256(('person' || (i % ${PEOPLE}))::bytea), 'hex'), 'bv_' || (i * 5), v.started_at
     from generate_series(0, ${LINKED_VISITORS - 1}) as i
     join seed_visits v on v.idx = 1 + i * 5`,
    `insert into events (site_id, event_id, type, name, person_key, occurred_at, received_at, properties,
       origin)
     select ${site}, 'sv_' || i, 'event', '${REPORTED_GOAL}', 'u:' || encode(sha256(('person' || (i * 7 % ${PEOPLE}))::bytea), 'hex'), t, t,
       jsonb_build_object('plan', (array['free', 'pro'])[1 + i % 2], 'variant', 'server'), 'server'
     from generate_series(1, ${SERVER_CONVERSIONS}) as i
     cross join lateral (select ${seedStart} + random() * interval '${SEED_DAYS} days' as t) ts`,
    `insert into visitors (site_id, visitor_id, first_seen, last_seen)
     select site_id, visitor_id, min(started_at), max(last_activity_at) from visits group by 1, 2`,
    `insert into goals (site_id, id, name, created_at, sort_order)
     select ${site}, gen_random_uuid(), name, ${seedStart}, position - 1
     from unnest(array[${GOALS.map(([name]) => `'${name}'`).join(', ')}]) with ordinality as g(name, position)`,
    `insert into daily_goal_completions (site_id, day, name, completions)
     select site_id, (occurred_at at time zone 'UTC')::date, name, count(*)
     from events where type = 'event' group by 1, 2, 3`,
    `insert into daily_goal_properties (site_id, name, day, pair, key, value, events)
     select e.site_id, e.name, (e.occurred_at at time zone 'UTC')::date,
       md5(length(p.key)::text || ':' || p.key || p.value)::uuid, p.key, p.value, count(*)
     from events e cross join lateral jsonb_each_text(e.properties) as p(key, value)
     where e.type = 'event' and jsonb_typeof(e.properties) = 'object' and p.value is not null
     group by 1, 2, 3, 4, 5, 6`,
    `insert into daily_visits (site_id, day, source_kind, session_ai_source, visits, pageviews)
     select site_id, (started_at at time zone 'UTC')::date, source_kind, session_ai_source, count(*), sum(pageviews)
     from visits group by 1, 2, 3, 4`,
    'drop table seed_visits',
    'analyze',
  ];
}

async function seed(databaseUrl, snippetKey, now) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select id from sites where snippet_key = $1', [snippetKey]);
    const siteId = rows[0]?.id;
    if (!siteId) throw new Error(`no site with snippet key ${snippetKey}`);
    for (const statement of seedStatements(siteId, now)) await client.query(statement);
    const counts = await client.query(
      `select (select count(*) from events)::int as events, (select count(*) from visits)::int as visits,
              (select count(*) from identity_links)::int as links`,
    );
    return { siteId, ...counts.rows[0] };
  } finally {
    await client.end();
  }
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Sequential GETs: warm-up runs not counted, then the measured ones; fails on any non-200. */
async function measure(report, baseUrl) {
  const url = `${baseUrl}${report.path}`;
  const headers = { authorization: `Bearer ${report.key}` };
  const timings = [];
  let lastBody;
  for (let run = 0; run < WARMUP_RUNS + MEASURED_RUNS; run += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`GET ${report.path} answered ${response.status}: ${text}`);
    if (run >= WARMUP_RUNS) timings.push(elapsed);
    lastBody = JSON.parse(text);
  }
  timings.sort((a, b) => a - b);
  const p50Ms = percentile(timings, 50);
  return {
    name: report.name,
    p50Ms: Number(p50Ms.toFixed(1)),
    p99Ms: Number(percentile(timings, 99).toFixed(1)),
    targetMs: report.targetMs,
    verdict: p50Ms < report.targetMs ? 'pass' : 'MISS',
    note: report.describe(lastBody),
  };
}

async function main(cleanups) {
  const startLoad = currentLoad();
  const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const databaseUrl = await createThrowawayDatabase(adminUrl, cleanups);
  const setupToken = randomBytes(16).toString('hex');
  const server = await startBuiltServer(
    {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SETUP_TOKEN: setupToken,
      LOG_LEVEL: 'warn',
      RATES_URL: 'off',
      CRAWLER_RANGES: 'off',
    },
    cleanups,
  );
  const { snippetKey, readKeys } = await createBenchSite(server.baseUrl, setupToken, 4);

  const now = new Date();
  let started = performance.now();
  const seeded = await seed(databaseUrl, snippetKey, now);
  process.stderr.write(
    `seeded ${seeded.events} events, ${seeded.visits} visits, ${seeded.links} identity links in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );

  const to = dayOf(now);
  const from = dayOf(new Date(now.getTime() - (REPORT_DAYS - 1) * DAY_MS));
  const window = `site_id=${snippetKey}&from=${from}&to=${to}`;
  const people = (body) => `${body.visitors?.length ?? 0} people of ${body.total_count ?? '?'}`;
  const reports = [
    {
      name: 'timeseries (30 days)',
      path: `/v1/goals/timeseries?${window}`,
      targetMs: 50,
      describe: (body) => `${JSON.stringify(body).length} bytes`,
    },
    {
      name: `properties of ${REPORTED_GOAL}`,
      path: `/v1/goals/${REPORTED_GOAL}/properties?${window}`,
      targetMs: 50,
      describe: (body) => `${JSON.stringify(body).length} bytes`,
    },
    {
      name: `visitors of ${REPORTED_GOAL}, page 1`,
      path: `/v1/goals/${REPORTED_GOAL}/visitors?${window}&page=1`,
      targetMs: 150,
      describe: people,
    },
    {
      name: `visitors of ${REPORTED_GOAL}, page 50`,
      path: `/v1/goals/${REPORTED_GOAL}/visitors?${window}&page=50`,
      targetMs: 150,
      describe: people,
    },
  ].map((report, index) => ({ ...report, key: readKeys[index] }));

  const rows = [];
  started = performance.now();
  for (const report of reports) rows.push(await measure(report, server.baseUrl));
  console.table(
    Object.fromEntries(
      rows.map((row) => [
        row.name,
        {
          'p50 ms': row.p50Ms,
          'p99 ms': row.p99Ms,
          'target p50 ms': `< ${row.targetMs}`,
          result: row.verdict,
          answer: row.note,
        },
      ]),
    ),
  );
  console.log(
    `${MEASURED_RUNS} sequential runs each after ${WARMUP_RUNS} warm-up runs, window ${from}..${to}; ` +
      describeMachine(startLoad),
  );
  const misses = rows.filter((row) => row.verdict !== 'pass').length;
  console.log(misses === 0 ? 'all reports within target' : `${misses} report(s) above target`);
}

await runBenchmark(main);
