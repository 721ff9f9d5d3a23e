/**
 * How each query is timed and checked: against PostgreSQL the API and the plain SQL alternate;
 * on PGlite the plain SQL is timed in-process first and the API later. Either way the first
 * answers are compared, a mismatch is printed loudly (and the run exits 1), and a query slower
 * than the budget gets fewer runs, with a note.
 */
import { callApi, compareAnswers, percentile, timeAlternately, timeRuns, timeSql } from './measure.mjs';

const WARMUP_RUNS = 3;
/** Time a query's runs may take on one side; a slower query gets fewer runs (at least 3), and says so. */
const QUERY_BUDGET_MS = 150_000;
const log = (line) => process.stderr.write(`${line}\n`);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * `measure(query, i)` for each query, the moving-window ones (realtime) first so their traffic
 * is still recent; resolves to the results in the queries' order.
 */
export async function measureAll(queries, measure) {
  const results = new Array(queries.length);
  const order = queries.map((_, i) => i).sort((a, b) => movingFirst(queries[a]) - movingFirst(queries[b]));
  for (const i of order) results[i] = await measure(queries[i], i);
  return results;
}
const movingFirst = (query) => (query.isMovingWindow ? 0 : 1);

/** The warm-up and timed runs that fit QUERY_BUDGET_MS when one run takes `firstMs`. */
function runsWithin(firstMs, runs) {
  const fit = Math.floor(QUERY_BUDGET_MS / Math.max(firstMs, 1));
  if (fit >= runs + WARMUP_RUNS) return { warmup: WARMUP_RUNS, runs };
  const fewer = Math.max(3, Math.min(runs, fit - 1));
  return {
    warmup: 1,
    runs: fewer,
    note: `${fewer} timed runs after 1 warm-up (one run took ${seconds(firstMs)})`,
  };
}

function reportCheck(query, body, plainRows) {
  const outcome = compareAnswers(query, body, plainRows);
  if (outcome === null) return null;
  if (outcome.skipped) return outcome.skipped;
  if (outcome.note) return outcome.note;
  if (query.isMovingWindow) {
    return `answers differ (a moving window, read at different moments): ${outcome.problems.join('; ')}`;
  }
  log(`\n!!! MISMATCH: ${query.name}: the API's answer differs from the plain query's`);
  for (const problem of outcome.problems) log(`!!!   ${problem}`);
  process.exitCode = 1;
  return `**MISMATCH** with the plain query: ${outcome.problems[0]}`;
}

const skippedRow = (query) => ({ name: query.name, targetMs: query.targetMs, skipped: query.skipped });

const summary = (query, apiTimes, plainP50, notes) => ({
  name: query.name,
  targetMs: query.targetMs,
  p50: percentile(apiTimes, 50),
  p99: percentile(apiTimes, 99),
  plainP50,
  note: [query.note, ...notes].filter(Boolean).join('; ') || null,
});

async function apiOnce(server, key, query, site) {
  const result = await callApi(server.baseUrl, key, query.request(site.snippetKey));
  if (result.status !== 200) {
    throw new Error(
      `${query.name}: the API answered ${result.status}: ${JSON.stringify(result.body).slice(0, 300)}`,
    );
  }
  return result;
}

export async function measureAlternately(query, { server, key, db, site }, { runs }) {
  if (query.skipped) return skippedRow(query);
  log(`timing ${query.name}`);
  const params = query.params(site.id);
  const api = await apiOnce(server, key, query, site);
  const plain = await timeSql(db, query.plain, params);
  const check = reportCheck(query, api.body, plain.rows);
  const plan = runsWithin(Math.max(api.ms, plain.ms), runs);
  const [apiTimes, plainTimes] = await timeAlternately(
    async () => (await apiOnce(server, key, query, site)).ms,
    async () => (await timeSql(db, query.plain, params)).ms,
    plan,
  );
  const engine = api.body?.meta?.engine;
  const answeredBy = engine ? `answered by ${engine}` : null;
  return summary(query, apiTimes, percentile(plainTimes, 50), [check, plan.note, answeredBy]);
}

/** The plain query's p50 (and a note when the budget cut its runs). */
export async function measurePlain(query, db, site, { runs }) {
  log(`timing the plain query of ${query.name}`);
  const params = query.params(site.id);
  const { ms } = await timeSql(db, query.plain, params);
  const plan = runsWithin(ms, runs);
  const timings = await timeRuns(async () => (await timeSql(db, query.plain, params)).ms, plan);
  return { p50: percentile(timings, 50), note: plan.note && `plain: ${plan.note}` };
}

/** The plain query's answer, to compare the API's with. */
export const plainAnswer = async (query, db, site) =>
  (await timeSql(db, query.plain, query.params(site.id))).rows;

/** `plain`: the plain query's p50, note and answer (`rows`), measured before. */
export async function measureApi(query, { server, key, plain, site }, { runs }) {
  if (query.skipped) return skippedRow(query);
  log(`timing ${query.name}`);
  const first = await apiOnce(server, key, query, site);
  const check = reportCheck(query, first.body, plain.rows);
  const plan = runsWithin(first.ms, runs);
  const timings = await timeRuns(async () => (await apiOnce(server, key, query, site)).ms, plan);
  return summary(query, timings, plain.p50, [check, plan.note && `API: ${plan.note}`, plain.note]);
}
