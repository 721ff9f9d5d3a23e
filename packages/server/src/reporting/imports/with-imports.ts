/**
 * A stats answer with imported days added (DESIGN.md §14). Live traffic is answered as always,
 * whole (unordered, unpaged) and with the visits and pageviews a rate needs; each group then
 * gets the imported counts of the same dimension values, rates are recomputed from the sums, and
 * the rows are ordered and paged here. Imports hold only days before the site's own traffic, so
 * no day is counted from both. Imported visitors are each day's: over several days a person
 * counts once per day, and the answer lists `visitors` as approximate.
 */

import type { Readers } from '../grain-sources.js';
import { planMetrics, type StatsPlan } from '../metric-rules.js';
import { answerStatsQuery, type StatsAnswer, type StatsQuery, type StatsRow } from '../planner.js';
import { orderRows } from '../row-order.js';
import { isTimeDimension, type Metric } from '../stats-vocabulary.js';
import { type ImportedCounts, importedGroups } from './imported-groups.query.js';
import type { ImportsShape } from './imports-plan.js';

const RATES: readonly Metric[] = ['views_per_visit', 'bounce_rate', 'visit_duration'];

type Imported = Map<string, ImportedCounts>;

const keyOf = (dimensions: (string | null)[]) => JSON.stringify(dimensions);

async function importedFor(
  readers: Readers,
  q: StatsQuery,
  range: { from: string; to: string },
  shape: ImportsShape,
): Promise<Imported> {
  const at = { siteId: q.siteId, ...range, dimensions: q.dimensions };
  const groups = new Map(
    (await importedGroups(readers.db, at, shape.dimension)).map((g) => [keyOf(g.dimensions), g.counts]),
  );
  // Without a dimension, the events are the goals' (the day totals hold visits only).
  if (shape.dimension === '' && q.metrics.some((name) => name === 'events' || name === 'conversions')) {
    const goals = await importedGroups(
      readers.db,
      { ...at, dimensions: q.dimensions.filter(isTimeDimension) },
      'event:goal',
    );
    for (const counts of groups.values()) counts.events = 0;
    for (const goal of goals) {
      const key = keyOf(goal.dimensions);
      const counts = groups.get(key);
      if (counts) counts.events += goal.counts.events;
      else groups.set(key, { ...goal.counts, visitors: 0, visits: 0, pageviews: 0, days: 0 });
    }
  }
  return groups;
}

function combine(
  nativeRows: StatsRow[],
  imported: Imported,
  q: StatsQuery,
  nativeMetrics: Metric[],
  approximate: Set<Metric>,
): StatsRow[] {
  const rows = new Map<
    string,
    { dimensions: (string | null)[]; native?: StatsRow; imported?: ImportedCounts }
  >();
  for (const row of nativeRows) rows.set(keyOf(row.dimensions), { dimensions: row.dimensions, native: row });
  for (const [key, counts] of imported) {
    const entry = rows.get(key) ?? { dimensions: JSON.parse(key) as (string | null)[] };
    entry.imported = counts;
    rows.set(key, entry);
  }
  // An aggregate is one row even when nothing happened; a breakdown lists groups with data.
  if (q.dimensions.length > 0) {
    for (const [key, entry] of rows)
      if (
        !entry.native &&
        entry.imported?.visits === 0 &&
        entry.imported.events === 0 &&
        entry.imported.pageviews === 0
      )
        rows.delete(key);
  }
  return [...rows.values()].map(({ dimensions, native, imported: i }) => {
    const n = (name: Metric) => (native ? (native.metrics[nativeMetrics.indexOf(name)] ?? 0) : 0);
    const visits = n('visits') + (i?.visits ?? 0);
    const mixed = (native ? n('visits') : 0) > 0 && (i?.visits ?? 0) > 0;
    const share = (nativeTotal: number, importedTotal: number) =>
      visits === 0 ? 0 : (nativeTotal + importedTotal) / visits;
    const metrics = q.metrics.map((name) => {
      if (!i) return n(name);
      if (RATES.includes(name) && mixed) approximate.add(name);
      switch (name) {
        case 'visitors':
          if (i.days > 1 && i.visitors > 0) approximate.add('visitors');
          return n('visitors') + i.visitors;
        case 'visits':
          return visits;
        case 'pageviews':
          return n('pageviews') + i.pageviews;
        case 'views_per_visit':
          return Math.round(share(n('pageviews'), i.pageviews) * 100) / 100;
        case 'bounce_rate':
          return Math.round(share((n('bounce_rate') * n('visits')) / 100, i.bounces) * 1000) / 10;
        case 'visit_duration':
          return Math.round(share(n('visit_duration') * n('visits'), i.duration_seconds));
        case 'events':
        case 'conversions':
          return n(name) + i.events;
        default:
          return n(name);
      }
    });
    return { dimensions, metrics };
  });
}

export async function answerWithImports(
  readers: Readers,
  query: StatsQuery,
  shape: ImportsShape,
  options: { withTotalRows: boolean; comparison?: { from: string; to: string } },
): Promise<StatsAnswer & { importsIncluded: boolean }> {
  const helpers = query.metrics.some((name) => RATES.includes(name))
    ? (['visits', 'pageviews'] as Metric[]).filter((name) => !query.metrics.includes(name))
    : [];
  const nativeMetrics = [...query.metrics, ...helpers];
  const plan: StatsPlan = planMetrics(nativeMetrics, query.dimensions, query.filters);
  const [native, main, earlier] = await Promise.all([
    answerStatsQuery(readers, { ...query, metrics: nativeMetrics, limit: null, offset: 0 }, plan, {
      withTotalRows: false,
      ...(options.comparison ? { comparison: options.comparison } : {}),
    }),
    importedFor(readers, query, query, shape),
    options.comparison ? importedFor(readers, query, options.comparison, shape) : undefined,
  ]);
  const approximate = new Set<Metric>(native.approximate);
  const rows = orderRows(combine(native.rows, main, query, nativeMetrics, approximate), query);
  const earlierRows =
    earlier && combine(native.earlierRows ?? [], earlier, query, nativeMetrics, approximate);
  const page =
    query.limit === null ? rows.slice(query.offset) : rows.slice(query.offset, query.offset + query.limit);
  return {
    rows: page,
    ...(options.withTotalRows ? { totalRows: query.dimensions.length === 0 ? 1 : rows.length } : {}),
    ...(earlierRows ? { earlierRows } : {}),
    unconverted: native.unconverted,
    approximate: query.metrics.filter((name) => approximate.has(name)),
    engine: native.engine,
    importsIncluded: main.size > 0 || (earlier?.size ?? 0) > 0,
  };
}
