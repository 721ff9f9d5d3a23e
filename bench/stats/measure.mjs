/**
 * Timing and checking: one API request (a 429 waits out its Retry-After and is not counted),
 * warm-up then timed runs, p50/p99, the API's answer beside the plain SQL's, and the markdown
 * table the run prints.
 */
import { performance } from 'node:perf_hooks';

const MAX_RATE_LIMIT_WAITS = 5;

/** One request with `key`; resolves to its status, parsed body and milliseconds. */
export async function callApi(baseUrl, key, { method, path, body }) {
  for (let attempt = 0; ; attempt += 1) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status === 429 && attempt < MAX_RATE_LIMIT_WAITS) {
      const waitS = Number(response.headers.get('retry-after')) || 5;
      process.stderr.write(`rate limited on ${path}: waiting ${waitS} s (not counted)\n`);
      await new Promise((resolve) => setTimeout(resolve, waitS * 1000));
      continue;
    }
    let parsed = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed, ms };
  }
}

/** `run()` resolves to milliseconds; `warmup` untimed runs, then `runs` timed. */
export async function timeRuns(run, { warmup, runs }) {
  for (let i = 0; i < warmup; i += 1) await run();
  const timings = [];
  for (let i = 0; i < runs; i += 1) timings.push(await run());
  return timings;
}

/** Two things timed in alternation, so a swing of the machine touches both alike. */
export async function timeAlternately(first, second, { warmup, runs }) {
  for (let i = 0; i < warmup; i += 1) {
    await first();
    await second();
  }
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i += 1) {
    a.push(await first());
    b.push(await second());
  }
  return [a, b];
}

/** Nearest-rank percentile of unsorted timings. */
export function percentile(timings, p) {
  const sorted = [...timings].sort((x, y) => x - y);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function timeSql(db, text, params) {
  const started = performance.now();
  const rows = await db.query(text, params);
  return { rows, ms: performance.now() - started };
}

const sameValue = (a, b) =>
  typeof a === 'number' && typeof b === 'number'
    ? Math.abs(a - b) < 1e-9
    : JSON.stringify(a) === JSON.stringify(b);

/**
 * The API's answer against the plain one: null when they agree, else a description. Only the
 * rows are compared (order included); `apiRange` also checks the range the API resolved.
 */
export function compareAnswers(query, body, plainRows) {
  const problems = [];
  const range = body?.meta?.date_range;
  if (query.apiRange && range && (range[0] !== query.apiRange.from || range[1] !== query.apiRange.to)) {
    problems.push(
      `the API answered for ${range.join('..')}, the plain query read ${query.apiRange.from}..${query.apiRange.to}`,
    );
  }
  const actual = query.actual(body);
  if (actual === null) return { skipped: 'the answer has no field this benchmark knows to compare' };
  const expected = query.expected(plainRows);
  const estimated = body?.meta?.approximate ?? [];
  if (estimated.length > 0) return compareEstimates(query, body, actual, expected, estimated, problems);
  if (actual.length !== expected.length)
    problems.push(`${actual.length} rows from the API, ${expected.length} plain`);
  const rows = Math.min(actual.length, expected.length);
  let shown = 0;
  for (let i = 0; i < rows && shown < 5; i += 1) {
    const a = actual[i];
    const e = expected[i];
    if (a.length !== e.length || a.some((value, j) => !sameValue(value, e[j]))) {
      problems.push(`row ${i + 1}: API ${JSON.stringify(a)} plain ${JSON.stringify(e)}`);
      shown += 1;
    }
  }
  return problems.length ? { problems } : null;
}

/** Within which relative error an estimated figure (meta.approximate) counts as agreeing. */
const ESTIMATE_TOLERANCE = 0.05;

/**
 * An answer with estimated metrics: rows are matched by their dimension values (estimates may
 * swap rows of nearly equal counts, so one row at the edge of a top-N may differ), exact figures
 * must be equal and estimates within ESTIMATE_TOLERANCE. A query whose rows carry more than its
 * metrics names the columns estimated (`estimatedColumns`, with percentage changes in `points`,
 * which may differ by that many points). The worst estimate's error is a note.
 */
function compareEstimates(query, body, actual, expected, estimated, problems) {
  const dimensionCount = body.query.dimensions.length;
  const columns = query.estimatedColumns ?? {
    relative: estimated.map((name) => dimensionCount + body.query.metrics.indexOf(name)),
    points: [],
  };
  const estimatedAt = new Set([...columns.relative, ...columns.points]);
  const inPoints = new Set(columns.points);
  const key = (row) => JSON.stringify(row.slice(0, dimensionCount));
  const plainByKey = new Map(expected.map((row) => [key(row), row]));
  let worst = 0;
  let unmatched = 0;
  for (const a of actual) {
    const e = plainByKey.get(key(a));
    if (!e) {
      unmatched += 1;
      continue;
    }
    a.forEach((value, j) => {
      if (!estimatedAt.has(j)) {
        if (!sameValue(value, e[j]))
          problems.push(`${key(a)}: API ${JSON.stringify(a)} plain ${JSON.stringify(e)}`);
        return;
      }
      const scale = inPoints.has(j) ? 100 : Math.abs(e[j]);
      const error =
        scale === 0 || value === null || e[j] === null
          ? value === e[j]
            ? 0
            : 1
          : Math.abs(value - e[j]) / scale;
      worst = Math.max(worst, error);
      if (error > ESTIMATE_TOLERANCE) problems.push(`${key(a)}: estimate ${value}, plain ${e[j]}`);
    });
  }
  if (unmatched > 1 || actual.length !== expected.length)
    problems.push(`${unmatched} rows of the API not in the plain answer`);
  const note = `${estimated.join(', ')} estimated: worst error ${(100 * worst).toFixed(1)}%`;
  return problems.length ? { problems } : { note };
}

const ms = (value) => (value === undefined ? '–' : `${value.toFixed(1)} ms`);

/** The markdown table of one database's run. */
export function printTable(title, rows) {
  console.log(`\n### ${title}\n`);
  console.log('| query | p50 | p99 | plain p50 | ratio | target | met? |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const target = `≤ ${row.targetMs >= 1000 ? `${row.targetMs / 1000} s` : `${row.targetMs} ms`}`;
    if (row.skipped) {
      console.log(`| ${row.name} | – | – | – | – | ${target} | skipped: ${row.skipped} |`);
      continue;
    }
    const ratio = row.plainP50 > 0 ? (row.p50 / row.plainP50).toFixed(2) : 'n/a';
    const met = row.p50 <= row.targetMs ? 'yes' : '**no**';
    console.log(
      `| ${row.name} | ${ms(row.p50)} | ${ms(row.p99)} | ${ms(row.plainP50)} | ${ratio} | ${target} | ${met} |`,
    );
  }
  const notes = rows.filter((row) => row.note);
  if (notes.length) console.log('');
  for (const row of notes) console.log(`- ${row.name}: ${row.note}`);
}
