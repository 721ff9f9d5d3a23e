/**
 * `npm run bench:import`: imports through the built server on a throwaway PostgreSQL database,
 * one source at a time, each in a fresh server process so its peak RSS is its own. Files are
 * written to a temporary folder first (their making is not timed), then uploaded and followed to
 * the end. Prints per source the upload time, the reading time (the import's `created_at` to
 * `finished_at`), rows a second of that, and the server's peak RSS.
 *
 * Environment: ROWS (GA4, Umami and Matomo rows, default 1,000,000), YEARS (of the Plausible
 * export, default 5), SOURCES (default all), BENCH_DATABASE_URL (an admin URL).
 * Targets (issue 40): ≥ 50,000 GA4 rows a second on PostgreSQL, RSS ≤ 300 MB.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import yazl from 'yazl';
import { createThrowawayDatabase } from './ingest-db.mjs';
import { currentLoad, describeMachine, readPeakRssMb, runBenchmark, startBuiltServer } from './lib.mjs';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const YEARS = Number(process.env.YEARS ?? 5);
const SOURCES = (process.env.SOURCES ?? 'ga4,umami,matomo,plausible').split(',');
const DOMAIN = 'bench.example.com';
const START = Date.parse('2024-01-01T00:00:00Z');
const REFERRERS = ['https://chatgpt.com/', 'https://www.google.com/', '', '', 'https://www.perplexity.ai/'];
const PAGES = Array.from({ length: 200 }, (_, i) => `/page-${i}`);

/** Writes `lines` (an iterable of strings) to `file`, respecting back-pressure. */
async function writeLines(file, lines) {
  const out = createWriteStream(file);
  let batch = [];
  for (const line of lines) {
    batch.push(line);
    if (batch.length === 2000) {
      if (!out.write(`${batch.join('\n')}\n`)) await new Promise((resolve) => out.once('drain', resolve));
      batch = [];
    }
  }
  out.end(batch.length > 0 ? `${batch.join('\n')}\n` : '');
  await new Promise((resolve, reject) => out.on('finish', resolve).on('error', reject));
}

/** GA4: sessions of 5 pageviews and an engagement event, 20 seconds apart, a session every 30 s. */
function* ga4Lines() {
  for (let i = 0; i < ROWS; i++) {
    const session = Math.floor(i / 6);
    const step = i % 6;
    const at = START + session * 30_000 + step * 20_000;
    const user = `${session % 150_000}.1700000000`;
    const page = PAGES[(session + step) % PAGES.length];
    const params = [
      { key: 'ga_session_id', value: { int_value: String(1_700_000_000 + session) } },
      { key: 'page_location', value: { string_value: `https://${DOMAIN}${page}` } },
    ];
    if (step === 0) params.push({ key: 'page_referrer', value: { string_value: REFERRERS[session % 5] } });
    if (step === 5) params.push({ key: 'engagement_time_msec', value: { int_value: '41000' } });
    yield JSON.stringify({
      event_date: new Date(at).toISOString().slice(0, 10).replaceAll('-', ''),
      event_timestamp: `${at}000`,
      event_name: step === 5 ? 'user_engagement' : 'page_view',
      event_params: params,
      user_pseudo_id: user,
      device: { category: 'desktop', operating_system: 'Windows', web_info: { browser: 'Chrome' } },
      geo: { country: session % 2 ? 'Germany' : 'United States' },
    });
  }
}

const UMAMI_HEADER =
  'website_id,session_id,visit_id,event_id,hostname,browser,os,device,screen,language,country,region,city,' +
  'url_path,url_query,referrer_path,referrer_query,referrer_domain,page_title,event_type,event_name,tag,created_at';

function* umamiLines() {
  yield UMAMI_HEADER;
  for (let i = 0; i < ROWS; i++) {
    const session = Math.floor(i / 5);
    const at = new Date(START + session * 30_000 + (i % 5) * 20_000)
      .toISOString()
      .replace('T', ' ')
      .slice(0, 19);
    const referrer = i % 5 === 0 ? (REFERRERS[session % 5] ?? '').replace(/^https:\/\/|\/$/g, '') : '';
    const id = `00000000-0000-4000-8000-${String(session % 150_000).padStart(12, '0')}`;
    yield [
      'b7e1c0de-0000-4000-8000-000000000001',
      id,
      id,
      `e${i}`,
      DOMAIN,
      'chrome',
      'Windows 10',
      'desktop',
      '1920x1080',
      'en-US',
      'DE',
      '',
      '',
      PAGES[i % PAGES.length],
      '',
      '',
      '',
      referrer,
      'Title',
      '1',
      '',
      '',
      at,
    ].join(',');
  }
}

/** Matomo: visits of 10 actions (9 pageviews and a goal), so ROWS / 10 rows of the CSV. */
function* matomoLines() {
  const actions = 10;
  const fields = ['type', 'url', 'timestamp', 'goalName'];
  yield [
    'idVisit,visitorId,firstActionTimestamp,visitDuration,referrerType,referrerName,referrerUrl',
    'countryCode,deviceType,browserName,operatingSystemName',
    ...Array.from({ length: actions }, (_, n) => fields.map((f) => `actionDetails_${n}_${f}`).join(',')),
  ].join(',');
  for (let visit = 0; visit < ROWS / actions; visit++) {
    const start = Math.floor((START + visit * 30_000) / 1000);
    const referrer = REFERRERS[visit % 5] ?? '';
    const cells = [visit + 1, (visit % 150_000).toString(16).padStart(16, '0'), start, 180];
    cells.push(referrer ? 'website' : 'direct', '', referrer, 'de', 'Desktop', 'Chrome', 'Windows');
    for (let n = 0; n < actions; n++) {
      const goal = n === actions - 1;
      cells.push(
        goal ? 'goal' : 'action',
        goal ? '' : `https://${DOMAIN}${PAGES[(visit + n) % PAGES.length]}`,
      );
      cells.push(start + n * 20, goal ? 'Signup' : '');
    }
    yield cells.join(',');
  }
}

/** Plausible: YEARS of days, with 50 sources, 200 pages and 40 countries a day. */
async function writePlausibleZip(file) {
  const days = Array.from({ length: YEARS * 365 }, (_, i) =>
    new Date(START - (i + 1) * 86_400_000).toISOString().slice(0, 10),
  );
  const table = (header, perDay) => [header, ...days.flatMap((day) => perDay(day))].join('\n');
  const counts = 'visitors,visits,pageviews,bounces,visit_duration';
  const files = {
    'imported_visitors.csv': table(`date,${counts}`, (day) => [`${day},500,600,1800,200,72000`]),
    'imported_sources.csv': table(
      `date,source,referrer,utm_source,utm_medium,utm_campaign,utm_content,utm_term,${counts}`,
      (day) =>
        Array.from({ length: 50 }, (_, i) => `${day},S${i},site-${i}.example.com,,,,,,10,12,36,4,1440`),
    ),
    'imported_pages.csv': table('date,hostname,page,visits,visitors,pageviews', (day) =>
      PAGES.map((page) => `${day},${DOMAIN},${page},3,3,9`),
    ),
    'imported_locations.csv': table(`date,country,region,city,${counts}`, (day) =>
      Array.from(
        { length: 40 },
        (_, i) => `${day},${String.fromCharCode(65 + (i % 26), 65 + Math.floor(i / 26))},,0,12,15,45,5,1800`,
      ),
    ),
  };
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files))
    zip.addBuffer(Buffer.from(`${text}\n`), name, { compress: true });
  zip.end();
  await new Promise((resolve, reject) =>
    zip.outputStream.pipe(createWriteStream(file)).on('finish', resolve).on('error', reject),
  );
}

const SOURCE_FILES = {
  ga4: { name: 'events.ndjson', type: 'application/x-ndjson', write: (file) => writeLines(file, ga4Lines()) },
  umami: { name: 'website_event.csv', type: 'text/csv', write: (file) => writeLines(file, umamiLines()) },
  matomo: { name: 'visits.csv', type: 'text/csv', write: (file) => writeLines(file, matomoLines()) },
  plausible: { name: 'plausible.zip', type: 'application/zip', write: writePlausibleZip },
};

async function setUp(baseUrl, setupToken) {
  const post = async (url, body, headers = {}) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    if (response.status !== 201)
      throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
  const { api_key: apiKey } = await post(`${baseUrl}/v1/setup`, {
    setup_token: setupToken,
    email: 'bench@example.com',
    password: 'a bench password',
  });
  const site = await post(`${baseUrl}/v1/sites`, { domain: DOMAIN }, { authorization: `Bearer ${apiKey}` });
  return { apiKey, site: site.snippet_key };
}

async function runSource(source, folder, adminUrl, cleanups) {
  const spec = SOURCE_FILES[source];
  const file = path.join(folder, spec.name);
  process.stderr.write(`${source}: writing the file\n`);
  await spec.write(file);
  const { size } = await stat(file);
  const databaseUrl = await createThrowawayDatabase(adminUrl, cleanups);
  const setupToken = randomBytes(16).toString('hex');
  const { REDIS_URL, DATA_DIR, ...env } = process.env;
  const server = await startBuiltServer(
    { ...env, DATABASE_URL: databaseUrl, SETUP_TOKEN: setupToken, LOG_LEVEL: 'warn' },
    cleanups,
  );
  const { apiKey, site } = await setUp(server.baseUrl, setupToken);
  const startRssMb = await readPeakRssMb(server.child.pid);
  const headers = { authorization: `Bearer ${apiKey}` };
  process.stderr.write(`${source}: uploading ${(size / 1e6).toFixed(1)} MB\n`);
  const uploadStart = performance.now();
  const response = await fetch(`${server.baseUrl}/v1/sites/${site}/imports?source=${source}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': spec.type, 'content-length': String(size) },
    body: Readable.toWeb(createReadStream(file)),
    duplex: 'half',
  });
  if (response.status !== 202)
    throw new Error(`${source}: upload answered ${response.status}: ${await response.text()}`);
  const uploadS = (performance.now() - uploadStart) / 1000;
  const { id } = (await response.json()).import;
  let done;
  // When the rows read last moved: the staging ended about then, and the counting began.
  let lastRows = -1;
  let lastMoved = Date.now();
  for (;;) {
    done = (await (await fetch(`${server.baseUrl}/v1/sites/${site}/imports/${id}`, { headers })).json())
      .import;
    if (done.status !== 'pending' && done.status !== 'running') break;
    if (done.progress.rows_read !== lastRows) {
      lastRows = done.progress.rows_read;
      lastMoved = Date.now();
    }
    await sleep(1000);
  }
  if (done.status !== 'completed')
    throw new Error(`${source}: the import ended ${done.status}: ${JSON.stringify(done.error)}`);
  const peakRssMb = await readPeakRssMb(server.child.pid);
  await server.stop();
  await rm(file);
  const readS = (Date.parse(done.finished_at) - Date.parse(done.created_at)) / 1000;
  const countS = Math.max(0, (Date.parse(done.finished_at) - lastMoved) / 1000);
  return {
    source,
    sizeMb: (size / 1e6).toFixed(1),
    rows: done.progress.rows_read,
    uploadS: uploadS.toFixed(1),
    readS: readS.toFixed(1),
    countS: countS.toFixed(1),
    rowsPerS: Math.round(done.progress.rows_read / readS),
    days: done.date_range?.join(' … '),
    peakRssMb,
    startRssMb,
  };
}

async function main(cleanups) {
  const startLoad = currentLoad();
  const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const folder = await mkdtemp(path.join(tmpdir(), 'touchtrail-bench-import-'));
  cleanups.add(() => rm(folder, { recursive: true, force: true }));
  const results = [];
  for (const source of SOURCES) {
    const result = await runSource(source, folder, adminUrl, cleanups);
    process.stderr.write(`${source}: ${JSON.stringify(result)}\n`);
    results.push(result);
  }
  console.log(
    `\nImports through the built server on PostgreSQL, ${ROWS.toLocaleString('en')} rows, ${YEARS} years of Plausible`,
  );
  console.log(`${describeMachine(startLoad)}\n`);
  console.log(
    '| source | file | rows | upload | reading (of it counting) | rows/s | days | peak RSS (at start) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.source} | ${r.sizeMb} MB | ${r.rows.toLocaleString('en')} | ${r.uploadS} s | ${r.readS} s (${r.countS} s) | ` +
        `${r.rowsPerS.toLocaleString('en')} | ${r.days} | ${r.peakRssMb ?? '?'} MB (${r.startRssMb ?? '?'} MB) |`,
    );
  }
}

await runBenchmark(main);
