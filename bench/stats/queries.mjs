/**
 * The queries of the traffic report targets (bench/RESULTS.md): each as the API request, and as the plain SQL
 * that gives the same numbers by scanning the raw visits and events tables with no rollup,
 * with both answers brought to one shape (rows of values) so they can be compared.
 */
import {
  addDays,
  dateRanges,
  LINKS,
  PAGEVIEWS_IN_RANGE,
  pathOf,
  person,
  personJoin,
  rangeParams,
  VISIT_DIMENSIONS,
  VISITS_IN_RANGE,
} from './plain-sql.mjs';

const BY_VISITORS = 'group by 1 order by 2 desc nulls last, 1 asc nulls last limit 10';

const statsRows = (body) => body.results.map((row) => [...row.dimensions, ...row.metrics]);
const sqlRows = (rows) => rows.map((row) => Object.values(row));

const AI_CHANNEL_FILTER = ['is', 'visit:channel', ['ai']];

/** Top 10 of a visit dimension by visitors, with visits; of the AI channel only with `aiOnly`. */
function topByVisit(name, dimension, range, targetMs, aiOnly = false) {
  const where = aiOnly ? `${VISITS_IN_RANGE} and v.source_kind = 'ai'` : VISITS_IN_RANGE;
  return {
    name,
    targetMs,
    range,
    body: (site) => ({
      site_id: site,
      metrics: ['visitors', 'visits'],
      dimensions: [dimension],
      date_range: range.keyword,
      limit: 10,
      ...(aiOnly ? { filters: [AI_CHANNEL_FILTER] } : {}),
    }),
    plain: `with ${LINKS}
      select ${VISIT_DIMENSIONS[dimension]} as d, count(distinct ${person('v.visitor_id')})::float8 as visitors,
        count(*)::float8 as visits from visits v ${personJoin('v.visitor_id')} where ${where} ${BY_VISITORS}`,
    expected: sqlRows,
    actual: statsRows,
  };
}

/**
 * Top 10 pages by visitors among the pageviews in the range (of AI visits only with `aiOnly`),
 * with the visits that viewed them. An API that does not know `event:page` answers 422; then
 * the entry page is measured instead.
 */
function topPages(name, range, targetMs, aiOnly = false) {
  const join = aiOnly
    ? "join visits v on v.site_id = e.site_id and v.id = e.visit_id and v.source_kind = 'ai'"
    : '';
  return {
    ...topByVisit(name, 'event:page', range, targetMs, aiOnly),
    plain: `with ${LINKS}
      select ${pathOf('e.url')} as d, count(distinct ${person('e.visitor_id')})::float8 as visitors,
        count(distinct e.visit_id)::float8 as visits
      from events e ${join} ${personJoin('e.visitor_id')} where ${PAGEVIEWS_IN_RANGE} ${BY_VISITORS}`,
    fallback: {
      status: 422,
      ...topByVisit(`${name} (by entry page)`, 'visit:entry_page', range, targetMs, aiOnly),
    },
  };
}

const AGGREGATE = {
  name: 'aggregate, 30 days',
  targetMs: 100,
  body: (site) => ({
    site_id: site,
    metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'],
    date_range: '30d',
  }),
  // A bounce: one pageview, under 10 s engaged and no custom browser event in the visit.
  plain: `with ${LINKS}
    select count(distinct ${person('v.visitor_id')})::float8 as visitors, count(*)::float8 as visits,
      coalesce(sum(v.pageviews), 0)::float8 as pageviews,
      coalesce(round(100.0 * count(*) filter (where v.pageviews = 1 and v.engaged_seconds < 10 and ce.visit_id is null)
        / nullif(count(*), 0), 1), 0)::float8 as bounce_rate,
      coalesce(round(avg(v.engaged_seconds)), 0)::float8 as visit_duration
    from visits v
    left join (
      select distinct e.visit_id from events e
      where e.site_id = $1 and e.type = 'event' and e.origin = 'browser' and e.visit_id is not null
        and e.occurred_at >= $2::timestamptz
    ) ce on ce.visit_id = v.id
    ${personJoin('v.visitor_id')}
    where ${VISITS_IN_RANGE}`,
  expected: sqlRows,
  actual: statsRows,
};

/** Days of the range and of the previous period in one scan; each day beside the one 30 days earlier. */
function timeSeries(ranges) {
  return {
    name: 'time series by day, 30 days, vs previous period',
    targetMs: 150,
    body: (site) => ({
      site_id: site,
      metrics: ['visitors', 'visits', 'pageviews'],
      dimensions: ['time:day'],
      date_range: '30d',
      include: { comparison: 'previous_period' },
    }),
    apiRange: ranges.last30,
    // The plain query reads both periods at once.
    range: { from: ranges.previous30.from, to: ranges.last30.to },
    plain: `with ${LINKS}
    select to_char(v.started_at at time zone 'UTC', 'YYYY-MM-DD') as day,
      count(distinct ${person('v.visitor_id')})::float8 as visitors, count(*)::float8 as visits,
      coalesce(sum(v.pageviews), 0)::float8 as pageviews
    from visits v ${personJoin('v.visitor_id')} where ${VISITS_IN_RANGE} group by 1 order by 1`,
    expected(rows) {
      const byDay = new Map(rows.map(({ day, ...metrics }) => [day, Object.values(metrics)]));
      return rows
        .filter((row) => row.day >= ranges.last30.from)
        .map(({ day, ...metrics }) => {
          const now = Object.values(metrics);
          const earlierDay = addDays(day, -30);
          const before = byDay.get(earlierDay) ?? now.map(() => 0);
          const change = now.map((value, i) =>
            before[i] === 0 ? null : Math.round(((value - before[i]) / before[i]) * 1000) / 10,
          );
          return [day, ...now, earlierDay, ...before, ...change];
        });
    },
    actual: (body) =>
      body.results.map((row) => [
        ...row.dimensions,
        ...row.metrics,
        ...row.comparison.dimensions,
        ...row.comparison.metrics,
        ...row.comparison.change,
      ]),
    // Visitors now and before, and its change in points, when people are estimated.
    estimatedColumns: { relative: [1, 5], points: [8] },
  };
}

const FUNNEL_STEPS = [
  { type: 'page', match: 'is', value: '/' },
  { type: 'page', match: 'is', value: '/pricing' },
  { type: 'page', match: 'contains', value: '/signup' },
];

/** The funnels' default window: later steps count up to a week after step 1. */
const FUNNEL_WINDOW = "interval '168 hours'";

/**
 * People who viewed `/` in the range, then `/pricing`, then a page containing `/signup` (any
 * case), each step the first one strictly after the step before and within the window of step 1.
 */
const FUNNEL = {
  name: '3-step funnel, 30 days',
  targetMs: 1000,
  request: (site) => ({
    method: 'POST',
    path: '/v1/funnels/query',
    body: { site_id: site, steps: FUNNEL_STEPS, date_range: '30d' },
  }),
  skipOn404: true,
  plain: `with ${LINKS},
    views as (
      select ${person('e.visitor_id')} as person, e.occurred_at as at, ${pathOf('e.url')} as path
      from events e ${personJoin('e.visitor_id')}
      where e.site_id = $1 and e.type = 'pageview' and e.occurred_at >= $2::timestamptz
        and e.occurred_at < $3::timestamptz + ${FUNNEL_WINDOW}
    ),
    s1 as (select person, min(at) as at from views where path = '/' and at < $3::timestamptz group by person),
    s2 as (select s1.person, s1.at as t1, min(w.at) as at from s1 join views w on w.person = s1.person
      and w.at > s1.at and w.at <= s1.at + ${FUNNEL_WINDOW} and w.path = '/pricing' group by s1.person, s1.at),
    s3 as (select s2.person, min(w.at) as at from s2 join views w on w.person = s2.person
      and w.at > s2.at and w.at <= s2.t1 + ${FUNNEL_WINDOW} and strpos(lower(w.path), '/signup') > 0
      group by s2.person)
    select (select count(*) from s1)::float8 as step1, (select count(*) from s2)::float8 as step2,
      (select count(*) from s3)::float8 as step3`,
  expected: (rows) => [Object.values(rows[0])],
  actual(body) {
    const steps = body?.steps ?? body?.results;
    if (!Array.isArray(steps)) return null;
    const counts = steps.map((step) => step.visitors ?? step.people ?? step.count ?? step.reached);
    return counts.every((count) => typeof count === 'number') ? [counts] : null;
  },
};

/**
 * The realtime answer (stats/realtime): visitor ids active (a pageview, or a custom event from
 * the browser) in the last 5 minutes, their top pages and channels, and per minute over the
 * last 30. A moving window, so two reads a moment apart may differ a little: only the visitor
 * count is compared.
 */
const REALTIME = {
  name: 'realtime',
  targetMs: 50,
  request: (site) => ({ method: 'GET', path: `/v1/stats/realtime?site_id=${site}` }),
  skipOn404: true,
  isMovingWindow: true,
  plain: `with activity as (
      select e.visitor_id, e.visit_id, e.type, e.url, e.occurred_at from events e
      where e.site_id = $1 and e.occurred_at >= date_trunc('minute', now()) - interval '29 minutes'
        and (e.type = 'pageview' or (e.type = 'event' and e.origin = 'browser'))
    ),
    recent as (select * from activity where occurred_at >= now() - interval '5 minutes')
    select (select count(distinct visitor_id) from recent)::float8 as visitors,
      (select json_agg(p) from (
        select ${pathOf('url')} as page, count(distinct visitor_id) as visitors from recent
        where type = 'pageview' group by 1 order by 2 desc, 1 limit 10) p) as pages,
      (select json_agg(s) from (
        select ${VISIT_DIMENSIONS['visit:channel']} as channel, ${VISIT_DIMENSIONS['visit:ai_source']} as ai_source,
          count(distinct r.visitor_id) as visitors
        from recent r join visits v on v.site_id = $1 and v.id = r.visit_id
        group by 1, 2 order by 3 desc limit 10) s) as sources,
      (select json_agg(m) from (
        select date_trunc('minute', occurred_at) as minute, count(*) filter (where type = 'pageview') as pageviews,
          count(distinct visitor_id) as visitors
        from activity group by 1 order by 1) m) as per_minute`,
  params: (siteId) => [siteId],
  expected: (rows) => [[rows[0].visitors]],
  actual(body) {
    const visitors = body?.visitors ?? body?.current_visitors;
    return typeof visitors === 'number' ? [[visitors]] : null;
  },
};

/**
 * The list, in the order; each with `request(site)`, the plain SQL and its
 * `params(siteId)`, `expected(rows)` and `actual(body)` in one shape, and the target p50.
 */
export function benchmarkQueries(ranges = dateRanges()) {
  const last30 = { ...ranges.last30, keyword: '30d' };
  const last12mo = { ...ranges.last12mo, keyword: '12mo' };
  const tops = (range, label, targetMs) => [
    topByVisit(`top 10 channels, ${label}`, 'visit:channel', range, targetMs),
    topByVisit(`top 10 AI assistants, ${label}`, 'visit:ai_source', range, targetMs),
    topPages(`top 10 pages, ${label}`, range, targetMs),
    topByVisit(`top 10 countries, ${label}`, 'visit:country', range, targetMs),
  ];
  const list = [
    { ...AGGREGATE, range: last30 },
    timeSeries(ranges),
    ...tops(last30, '30 days', 150),
    ...tops(last12mo, '12 months', 500),
    topPages('AI channel only, top 10 pages, 30 days', last30, 300, true),
    { ...FUNNEL, range: last30 },
    REALTIME,
  ];
  return list.map(complete);
}

function complete(query) {
  const isStats = query.request === undefined;
  const filled = {
    ...query,
    request:
      query.request ?? ((site) => ({ method: 'POST', path: '/v1/stats/query', body: query.body(site) })),
    params: query.params ?? ((siteId) => rangeParams(siteId, query.range)),
    // The range the API should answer for (its meta.date_range), checked once.
    apiRange: isStats ? (query.apiRange ?? query.range) : undefined,
  };
  return query.fallback ? { ...filled, fallback: complete(query.fallback) } : filled;
}
