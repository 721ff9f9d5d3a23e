/**
 * The SQL that generates a site's traffic in the database itself (generate_series), in the
 * rows ingest would have written. Every random choice is a hash of the row's number and a salt
 * (`unit`), not random(): a visit's entry page, its pageview events and its exit page are then
 * the same page however often the expression is evaluated, and the statements stay plain
 * INSERT … SELECT that PostgreSQL and PGlite both run.
 */
import { CUSTOM_EVENTS, PAGE_PATHS, PLACES, PLATFORMS, SOURCES, TRAFFIC } from './seed-values.mjs';

export const lit = (value) => `'${String(value).replaceAll("'", "''")}'`;
const textArray = (values) => `(array[${values.map(lit).join(', ')}]::text[])`;

/** A number in [0, 1) from `key` (an integer expression) and a salt. */
const unit = (salt, key) =>
  `((hashint8extended((${key})::int8, ${salt}) & 4503599627370495)::float8 / 4503599627370496)`;

/** 1-based index into `items`, picked by `u` (a column in [0, 1)) by their `weight`. */
function pickIndex(u, items) {
  const weights = items.map((item) => item.weight);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let upper = 0;
  const branches = weights.slice(0, -1).map((weight, i) => {
    upper += weight / total;
    return `when ${u} < ${upper.toFixed(9)} then ${i + 1}`;
  });
  return `(case ${branches.join(' ')} else ${weights.length} end)`;
}

const at = (list, key, index) => `${textArray(list.map((item) => item[key]))}[${index}]`;
const ts = (date) => `${lit(date.toISOString())}::timestamptz`;

/** A page path, Zipf-like by rank; AI visits read the ranks in another order (docs and posts first). */
function pagePath(key, kind) {
  const n = PAGE_PATHS.length;
  const rank = `least(${n}, floor(power(${n + 1}, ${unit(20, key)}))::int)`;
  return `${textArray(PAGE_PATHS)}[case when ${kind} = 'ai' then ${rank} * 37 % ${n} + 1 else ${rank} end]`;
}
const pageKey = (idx, n) => `(${idx}) * 64 + (${n})`;

const SOURCE_ALIASES = { name: 'source_name', key: 'source_key' };
const query = (s) => (Object.keys(s.query).length ? `?${new URLSearchParams(s.query)}` : '');
const sourceKey = (s) =>
  s.label === 'direct'
    ? ''
    : [s.label, s.name, s.query.utm_source ?? '', s.query.utm_medium ?? '', s.query.utm_campaign ?? ''].join(
        '|',
      );
const SOURCE_ROWS = SOURCES.map((s) => ({
  ...s,
  key: sourceKey(s),
  search: query(s),
  utm_source: s.query.utm_source ?? '',
  utm_medium: s.query.utm_medium ?? '',
  utm_campaign: s.query.utm_campaign ?? '',
  utm_content: s.query.utm_content ?? '',
  utm_term: s.query.utm_term ?? '',
  ref: s.query.ref ?? '',
}));

/**
 * Visitors `k` in [k0, k1]: each with a number of visits, the time of the first and the gap
 * between them (visits spread from the first to `lastStart`), where they are and what they use.
 * `recent`: one visit each instead, started between `firstStart` and `lastStart`.
 */
export function peopleSql({ k0, k1, firstStart, lastStart, recent }) {
  const spanS = (lastStart - firstStart) / 1000;
  const placeIndex = pickIndex('u_place', PLACES);
  const platformIndex = pickIndex('u_platform', PLATFORMS);
  const visits = recent
    ? '1'
    : `1 + least(floor(-ln(1 - ${unit(1, 'k')}) * ${TRAFFIC.repeatVisitsMean})::int, ${TRAFFIC.maxVisitsPerVisitor - 1})`;
  return `create temporary table seed_people as
    select k, vid, n, first_at,
      case when n = 1 then 0 else extract(epoch from ${ts(lastStart)} - first_at) / n * gap_u end as gap_s,
      ${at(PLACES, 'country', 'place')} as country_code, ${at(PLACES, 'city', 'place')} as city,
      ${at(PLATFORMS, 'device', 'platform')} as device_type, ${at(PLATFORMS, 'os', 'platform')} as os,
      ${at(PLATFORMS, 'browser', 'platform')} as browser
    from (
      select q.*, ${placeIndex} as place, ${platformIndex} as platform
      from (
        select k, substr(md5('visitor ' || k), 1, 20) as vid, ${visits} as n,
          ${ts(firstStart)} + ${unit(2, 'k')} * ${spanS} * interval '1 second' as first_at,
          ${unit(3, 'k')} as gap_u, ${unit(4, 'k')} as u_place, ${unit(5, 'k')} as u_platform
        from generate_series(${k0}, ${k1}) as k
      ) q
    ) p`;
}

/** Every visit of seed_people in time order, numbered from `idx0 + 1`; the first of each visitor is new. */
export const allVisitsSql = (idx0) => `create temporary table seed_all as
  select ${idx0} + row_number() over (order by started_at, k, j) as idx, k, vid, j = 0 as is_new,
    started_at, country_code, city, device_type, os, browser
  from seed_people p cross join generate_series(0, p.n - 1) as j
  cross join lateral (select p.first_at + j * p.gap_s * interval '1 second' as started_at) s`;

/**
 * Visits idx in [a, b] with everything ingest records about them: source, pageviews and the
 * seconds between them (squeezed so a visit ends before `now`), the custom event if any, entry
 * and exit URLs, last activity and engaged time.
 */
export function chunkSql({ a, b, now, domain }) {
  const t = TRAFFIC;
  const origin = lit(`https://${domain}`);
  const extraPages = `least(floor(-ln(1 - u_extra) * ${t.extraPagesMean})::int, ${t.maxPageviews - 2})`;
  const sourceIndex = pickIndex('u_source', SOURCES);
  const eventIndex = pickIndex('u_name', CUSTOM_EVENTS);
  const sourceField = (key) => `${at(SOURCE_ROWS, key, 'sidx')} as ${SOURCE_ALIASES[key] ?? key}`;
  return `create temporary table seed_chunk as
    select x.*, gen_random_uuid() as id,
      ${origin} || ${pagePath(pageKey('idx', 1), 'kind')} || search as entry_url,
      ${origin} || ${pagePath(pageKey('idx', 'pv'), 'kind')} || case when pv = 1 then search else '' end as exit_url,
      started_at + greatest((pv - 1) * step_s, coalesce(event_s, 0)) * interval '1 second' as last_activity_at,
      case
        when pv = 1 and eidx is null then
          case when u_engaged < ${t.quickExitShare} then floor(u_seconds * 10) else 10 + floor(u_seconds * 170) end
        when pv = 1 then 10 + floor(u_seconds * 110)
        else floor(step_s * (pv - 1) * (0.3 + 0.6 * u_seconds)) + 5 + floor(u_engaged * 25)
      end::int as engaged_seconds
    from (
      select y.*, ${sourceField('kind')}, ${sourceField('label')}, ${sourceField('name')}, ${sourceField('key')},
        ${sourceField('search')}, ${sourceField('utm_source')}, ${sourceField('utm_medium')},
        ${sourceField('utm_campaign')}, ${sourceField('utm_content')}, ${sourceField('utm_term')},
        ${sourceField('ref')},
        case when eidx is not null then (u_event * (pv - 1) + 0.5) * step_s end as event_s
      from (
        select z.*,
          least(${t.minStepSeconds} + floor(u_step * ${t.maxStepSeconds - t.minStepSeconds}),
            ${t.maxVisitSeconds}.0 / greatest(pv - 1, 1),
            extract(epoch from ${ts(now)} - started_at) / pv) as step_s
        from (
          select w.*, ${sourceIndex} as sidx,
            case when u_pv < ${t.singlePageShare} then 1 else 2 + ${extraPages} end as pv,
            case when u_custom < ${t.customEventShare} then ${eventIndex} end as eidx
          from (
            select s.*, ${unit(10, 'idx')} as u_source, ${unit(11, 'idx')} as u_pv, ${unit(12, 'idx')} as u_extra,
              ${unit(13, 'idx')} as u_step, ${unit(14, 'idx')} as u_custom, ${unit(15, 'idx')} as u_name,
              ${unit(16, 'idx')} as u_engaged, ${unit(17, 'idx')} as u_seconds, ${unit(18, 'idx')} as u_event,
              ${unit(19, 'idx')} as u_value
            from seed_all s where s.idx between ${a} and ${b}
          ) w
        ) z
      ) y
    ) x`;
}

/** The pageviews of seed_chunk, one row each, with the page picked as for the entry and exit URLs. */
export const pageviewsSql = (domain) => `create temporary table seed_pageviews as
  select c.idx, c.id as visit_id, c.vid, c.kind, c.label, n,
    c.started_at + (n - 1) * c.step_s * interval '1 second' as at,
    ${lit(`https://${domain}`)} || ${pagePath(pageKey('c.idx', 'n'), 'c.kind')} || case when n = 1 then c.search else '' end as url
  from seed_chunk c cross join generate_series(1, c.pv) as n`;

/** The visits table's columns this seed fills, each with its value from seed_chunk. */
export const VISIT_COLUMNS = {
  site_id: null,
  id: 'id',
  visitor_id: 'vid',
  started_at: 'started_at',
  last_activity_at: 'last_activity_at',
  entry_url: 'entry_url',
  source_kind: 'kind',
  session_ai_source: 'label',
  source_name: 'source_name',
  source_key: 'source_key',
  campaign: 'utm_campaign',
  ref: 'ref',
  device_type: 'device_type',
  os: 'os',
  browser: 'browser',
  country_code: 'country_code',
  city: 'city',
  pageviews: 'pv',
  engaged_seconds: 'engaged_seconds',
  is_new: 'is_new',
  // Added by migration 017; filled when the table has them.
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_content: 'utm_content',
  utm_term: 'utm_term',
  exit_url: 'exit_url',
};

/** The custom event of a visit: its properties and, for a purchase, its value in `currency`. */
export function customEventColumns(currency) {
  const properties = CUSTOM_EVENTS.map(
    (e, i) =>
      `when ${i + 1} then jsonb_build_object(${lit(e.key)}, ${textArray(e.values)}[1 + floor(u_value * ${e.values.length})::int])`,
  ).join(' ');
  const values = CUSTOM_EVENTS.map((e, i) =>
    e.valueMinor
      ? `when ${i + 1} then (array[${e.valueMinor.join(', ')}])[1 + floor(u_value * ${e.valueMinor.length})::int]`
      : '',
  ).join(' ');
  return {
    name: at(CUSTOM_EVENTS, 'name', 'eidx'),
    properties: `case eidx ${properties} end`,
    valueMinor: `case eidx ${values} else null end`,
    currency: `case when (case eidx ${values} else null end) is not null then ${lit(currency)} end`,
  };
}
