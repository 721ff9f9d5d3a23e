/**
 * `npm run bench:dashboard`: how long the dashboard's overview of the `bench:stats` big site
 * (10,000,000 pageviews at scale 1) takes in Chromium at 1280×900, for 30 days and 12 months:
 * from navigation start until no `.skeleton` is left and the network is idle. Cold: a new
 * browser context per load, so nothing is cached. Warm: one context, a new page per load, so the
 * dashboard's files come from the browser cache (the API's answers are never cached). Each set
 * is one warm-up load, then `--runs` timed ones; it prints min/median/max, the slowest API call
 * of each load, and per call its median time in the page beside its time when replayed alone.
 * Flags: --database <url> (a database kept by `bench:stats --pg-only --keep`; without it,
 * bench/stats seeds one at --scale, which also times its queries once), --scale <f> (1),
 * --runs <n> (5), --keep (leave a database seeded here).
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { currentLoad, describeMachine, runBenchmark } from '../lib.mjs';
import { DATABASE_NAME, runOnPostgres } from '../stats/engines.mjs';
import { dropDatabase, newSetupToken, startServer } from '../stats/targets.mjs';

// The account bench/stats/targets.mjs creates.
const EMAIL = 'bench@example.com';
const PASSWORD = 'a bench password';
const BIG_SITE = 'big.example.com';
const RANGES = [
  { name: '30 days', query: '' },
  { name: '12 months', query: '?range=12mo' },
];
const log = (line) => process.stderr.write(`${line}\n`);

function readOptions() {
  const { values } = parseArgs({
    options: {
      database: { type: 'string' },
      scale: { type: 'string', default: '1' },
      runs: { type: 'string', default: '5' },
      keep: { type: 'boolean', default: false },
    },
  });
  const scale = Number(values.scale);
  const runs = Number(values.runs);
  if (!(scale > 0 && scale <= 10))
    throw new Error(`--scale must be a number in (0, 10], got "${values.scale}"`);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs must be a positive integer, got "${values.runs}"`);
  return { database: values.database, scale, runs, keep: values.keep };
}

/** The URL of a kept database, or of one bench/stats seeds now. */
async function benchDatabase(options, cleanups) {
  if (options.database) return options.database;
  const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  await runOnPostgres({ scale: options.scale, runs: 1, keep: true }, cleanups);
  if (!options.keep) cleanups.add(() => dropDatabase(adminUrl, DATABASE_NAME));
  const url = new URL(adminUrl);
  url.pathname = `/${DATABASE_NAME}`;
  return url.toString();
}

/** A fresh session cookie: each set of loads gets its own, as stats reads are budgeted per credential. */
async function signIn(baseUrl) {
  const response = await fetch(`${baseUrl}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('tt_session='));
  if (!cookie) throw new Error('sign-in set no tt_session cookie');
  return { name: 'tt_session', value: cookie.split(';')[0].slice('tt_session='.length), url: baseUrl };
}

async function bigSiteUuid(baseUrl, cookie) {
  const response = await fetch(`${baseUrl}/v1/dashboard/sites`, {
    headers: { cookie: `${cookie.name}=${cookie.value}` },
  });
  if (!response.ok) throw new Error(`GET /v1/dashboard/sites answered ${response.status}`);
  const site = (await response.json()).sites.find((s) => s.domain === BIG_SITE);
  if (!site) throw new Error(`${BIG_SITE} is not in the database`);
  return site.uuid;
}

/**
 * In the page, before its scripts: the time (performance.now(), from navigation start) at which
 * the last skeleton went away.
 */
function watchSkeletons() {
  let shown = false;
  new MutationObserver(() => {
    if (document.querySelector('.skeleton')) shown = true;
    else if (shown) {
      shown = false;
      window.__skeletonsGoneAt = performance.now();
    }
  }).observe(document, { childList: true, subtree: true });
}

function callName(request) {
  const { pathname } = new URL(request.url());
  if (pathname !== '/v1/stats/query') return `${request.method()} ${pathname}`;
  const body = request.postDataJSON();
  const dimensions = body.dimensions?.join('+') || 'totals';
  const filtered = body.filters?.length ? ', filtered' : '';
  const compared = body.include?.comparison ? ', compared' : '';
  return `stats ${dimensions} (${body.metrics.join(', ')}${filtered}${compared})`;
}

/** One load of `url` in a new page of `context`: its milliseconds and its API calls. */
async function loadOverview(context, url) {
  const page = await context.newPage();
  const calls = [];
  const failures = [];
  let inFlight = 0;
  page.on('request', () => {
    inFlight += 1;
  });
  page.on('requestfailed', (request) => {
    inFlight -= 1;
    failures.push(`${request.url()}: ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.url()} answered ${response.status()}`);
  });
  page.on('requestfinished', (request) => {
    inFlight -= 1;
    if (!new URL(request.url()).pathname.startsWith('/v1/')) return;
    // timing() is complete only once the request has finished; its times count from the request's
    // start, so requestStart is the wait for one of the browser's 6 connections to the server.
    const timing = request.timing();
    calls.push({
      name: callName(request),
      ms: timing.responseEnd,
      unsentMs: timing.requestStart,
      replay: { method: request.method(), url: request.url(), body: request.postData() ?? undefined },
    });
  });
  await page.goto(url);
  await page.waitForFunction(
    () => window.__skeletonsGoneAt !== undefined && !document.querySelector('.skeleton'),
  );
  await page.waitForLoadState('networkidle');
  if (inFlight > 0 || (await page.locator('.skeleton').count()) > 0)
    failures.push('a skeleton or a request was left after the network went idle');
  // The page is complete at the later of the last skeleton gone and the last response.
  const { ms, statsStart } = await page.evaluate(() => {
    const resources = performance.getEntriesByType('resource');
    const stats = resources.filter((entry) => entry.name.endsWith('/v1/stats/query'));
    return {
      ms: Math.max(window.__skeletonsGoneAt, ...resources.map((entry) => entry.responseEnd)),
      statsStart: Math.min(...stats.map((entry) => entry.startTime)),
    };
  });
  await page.close();
  if (failures.length) throw new Error(`loading ${url}: ${failures.join('; ')}`);
  return { ms, statsStart, calls };
}

/** A warm-up load then `runs` timed ones; `cold` opens a new context (empty cache) per load. */
async function measureSet(browser, url, cookie, { runs, cold }) {
  const newContext = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([cookie]);
    await context.addInitScript(watchSkeletons);
    return context;
  };
  let context = await newContext();
  const loads = [];
  for (let i = 0; i <= runs; i += 1) {
    if (cold && i > 0) {
      await context.close();
      context = await newContext();
    }
    const load = await loadOverview(context, url);
    if (i > 0) loads.push(load);
  }
  await context.close();
  return loads;
}

/**
 * Each API call of `load` again, one at a time with the page's cookie: what it costs without the
 * others competing for the 2 cores and the connection pool.
 */
async function timeAlone(load, cookie, origin) {
  const alone = new Map();
  for (const { name, replay } of load.calls) {
    const started = performance.now();
    const response = await fetch(replay.url, {
      method: replay.method,
      headers: { cookie: `${cookie.name}=${cookie.value}`, origin, 'content-type': 'application/json' },
      body: replay.body,
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${name} alone answered ${response.status}`);
    alone.set(name, performance.now() - started);
  }
  return alone;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (value) => `${Math.round(value)} ms`;

function printSet(title, loads, alone) {
  const times = loads.map((load) => load.ms);
  console.log(
    `\n${title}: median ${ms(median(times))}, min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))}` +
      ` (${times.map(ms).join(', ')})`,
  );
  console.log(`the first stats call starts at ${ms(median(loads.map((load) => load.statsStart)))} (median)`);
  const slowest = loads.map((load) => load.calls.reduce((a, b) => (b.ms > a.ms ? b : a)));
  console.log(`slowest call per load: ${slowest.map((call) => `${call.name} ${ms(call.ms)}`).join('; ')}`);
  const byName = new Map();
  for (const call of loads.flatMap((load) => load.calls))
    byName.set(call.name, [...(byName.get(call.name) ?? []), call]);
  const rows = [...byName].map(([name, calls]) => ({
    name,
    ms: median(calls.map((call) => call.ms)),
    unsentMs: median(calls.map((call) => call.unsentMs)),
  }));
  rows.sort((a, b) => b.ms - a.ms);
  const table = rows.map((row) => [
    row.name,
    {
      'median ms in the page': Math.round(row.ms),
      'of which unsent': Math.round(row.unsentMs),
      'alone ms': Math.round(alone.get(row.name) ?? Number.NaN),
    },
  ]);
  console.table(Object.fromEntries(table));
  const sum = [...alone.values()].reduce((a, b) => a + b, 0);
  console.log(`the calls one after another, alone: ${ms(sum)} in all`);
}

/**
 * How much of the big site every report reads raw: the days the rollup job has not built (the
 * current day at least), which grow through the day. Figures from late in a UTC day are the
 * slowest of that day.
 */
async function describeUnbuilt(database) {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select count(*)::int as pageviews, to_char(now() at time zone 'UTC', 'HH24:MI') as at
       from events e join sites s on s.id = e.site_id
       where s.domain = $1 and e.type = 'pageview'
         and e.occurred_at >= coalesce(
           (select max(d.day) + 1 from stats_rollup_days d where d.site_id = s.id)::timestamp at time zone 'UTC',
           '-infinity')`,
      [BIG_SITE],
    );
    const { pageviews, at } = rows[0];
    return `started at ${at} UTC, with ${pageviews.toLocaleString('en')} pageviews of days not built yet, read raw`;
  } finally {
    await client.end();
  }
}

async function main(cleanups) {
  const options = readOptions();
  const startLoad = currentLoad();
  const database = await benchDatabase(options, cleanups);
  // startServer builds the server and the dashboard first when their dist is missing or stale.
  const server = await startServer({ DATABASE_URL: database }, newSetupToken(), cleanups);
  const uuid = await bigSiteUuid(server.baseUrl, await signIn(server.baseUrl));
  const unbuilt = await describeUnbuilt(database);
  log(unbuilt);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  cleanups.add(() => browser.close());
  for (const cold of [true, false]) {
    for (const range of RANGES) {
      const url = `${server.baseUrl}/sites/${uuid}${range.query}`;
      const cookie = await signIn(server.baseUrl);
      log(`loading the overview, ${range.name}, ${cold ? 'cold' : 'warm'} cache`);
      const loads = await measureSet(browser, url, cookie, { runs: options.runs, cold });
      const alone = await timeAlone(loads.at(-1), cookie, server.baseUrl);
      printSet(`${range.name}, ${cold ? 'cold' : 'warm'} cache`, loads, alone);
    }
  }
  console.log(
    `\n---\n${describeMachine(startLoad)}; Chromium ${browser.version()}, 1280×900; ${unbuilt}; ` +
      `1 warm-up + ${options.runs} timed loads per set`,
  );
}

await runBenchmark(main);
