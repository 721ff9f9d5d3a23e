/**
 * Seeds the benchmark's sites through a plain SQL handle (`query(text, params)` resolving to
 * rows), the same on PostgreSQL and PGlite: per group of visitors, every visit in time order
 * (so the tables' physical order is ingest's), then in chunks of visits their rows in `visits`
 * and `events` and the daily rollups ingest keeps; at the end the visitors, identity links and
 * goals. Memory stays bounded by the chunk; progress goes to stderr.
 */
import { performance } from 'node:perf_hooks';
import {
  allVisitsSql,
  chunkSql,
  customEventColumns,
  lit,
  pageviewsSql,
  peopleSql,
  VISIT_COLUMNS,
} from './seed-sql.mjs';
import { CUSTOM_EVENTS, TRAFFIC } from './seed-values.mjs';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Days of history, one short of the 365 that conversion retention keeps. */
const HISTORY_DAYS = 364;
/** Regular visits start this long before the seed's start at the latest; the last half hour gets its own. */
const QUIET_TAIL_MS = 45 * MINUTE_MS;
/** Visits in the last 30 minutes, for the realtime report. */
export const REALTIME_VISITS = 300;
/** 1,000,000 visitors at scale 1 make ≈ 3,000,000 visits and ≈ 10,000,000 pageviews. */
export const BIG_SITE_VISITORS = 1_000_000;
/** ≈ 2,000 pageviews per small site at scale 1. */
export const SMALL_SITE_VISITORS = 200;

const format = (n) => n.toLocaleString('en-US');
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * Seeds `big` with `bigVisitors` visitors over the year and each of `small` with
 * `smallVisitors`. Resolves to what `seedRecentVisits` needs to add the big site's last half
 * hour later, right before the realtime report is read.
 */
export async function seedSites(db, { big, small, bigVisitors, smallVisitors, chunkVisits, log }) {
  const context = { visitColumns: await fillableVisitColumns(db), chunkVisits, log };
  const now = new Date();
  const history = {
    firstStart: new Date(now - HISTORY_DAYS * DAY_MS),
    lastStart: new Date(now - QUIET_TAIL_MS),
  };
  const group = { ...history, now, linked: true, k0: 1, idx0: 0 };
  const bigVisits = await seedGroup(db, big, { ...group, k1: bigVisitors }, context);
  await finishSite(db, big, history.firstStart);
  const started = performance.now();
  for (const [i, site] of small.entries()) {
    await seedGroup(db, site, { ...group, k1: smallVisitors }, { ...context, quiet: true });
    await finishSite(db, site, history.firstStart);
    if ((i + 1) % 10 === 0 || i + 1 === small.length)
      log(`small sites: ${i + 1} / ${small.length} (${seconds(started)})`);
  }
  return { context, k0: bigVisitors + 1, idx0: bigVisits };
}

/**
 * REALTIME_VISITS visits of new visitors to `big` in the last 30 minutes (until 30 s ago), each
 * ending by now; `recent` is what `seedSites` resolved to.
 */
export async function seedRecentVisits(db, big, recent) {
  const now = new Date();
  const since = new Date(now - 30 * MINUTE_MS);
  const group = { firstStart: since, lastStart: new Date(now - 30_000), now, recent: true, linked: false };
  await seedGroup(
    db,
    big,
    { ...group, k0: recent.k0, k1: recent.k0 + REALTIME_VISITS - 1, idx0: recent.idx0 },
    recent.context,
  );
  await finishSite(db, big, since, since);
}

/** The columns of `visits` this seed knows how to fill (migration 017's only when present). */
async function fillableVisitColumns(db) {
  const rows = await db.query(
    `select column_name from information_schema.columns
     where table_name = 'visits' and table_schema = current_schema()`,
  );
  const present = new Set(rows.map((row) => row.column_name));
  const unknown = [...present].filter((name) => !(name in VISIT_COLUMNS));
  if (unknown.length)
    process.stderr.write(`note: visits columns left to their defaults: ${unknown.join(', ')}\n`);
  return Object.keys(VISIT_COLUMNS).filter((name) => present.has(name));
}

/** One group of visitors of a site, chunk by chunk; resolves to the number of visits. */
async function seedGroup(db, site, group, { visitColumns, chunkVisits, log, quiet }) {
  const started = performance.now();
  const siteId = `${lit(site.id)}::uuid`;
  await db.query('drop table if exists seed_people, seed_all');
  await db.query(peopleSql(group));
  await db.query(allVisitsSql(group.idx0));
  await db.query('create index on seed_all (idx)');
  await db.query('analyze seed_all');
  const [{ visits }] = await db.query('select count(*)::int as visits from seed_all');
  const custom = customEventColumns(site.currency);
  let pageviews = 0;
  for (let a = group.idx0 + 1; a <= group.idx0 + visits; a += chunkVisits) {
    const b = Math.min(a + chunkVisits - 1, group.idx0 + visits);
    await db.query(chunkSql({ a, b, now: group.now, domain: site.domain }));
    await db.query(pageviewsSql(site.domain));
    await db.query(`create temporary table seed_conversions as
      select idx, id, vid, ${custom.name} as name, started_at + event_s * interval '1 second' as at,
        regexp_replace(entry_url, '[?#].*$', '') as url, ${custom.properties} as properties,
        ${custom.valueMinor} as value_minor, ${custom.currency} as currency
      from seed_chunk where eidx is not null`);
    pageviews += await insertChunk(db, siteId, visitColumns);
    await db.query('drop table seed_chunk, seed_pageviews, seed_conversions');
    if (!quiet) {
      log(
        `${site.domain}: ${format(b - group.idx0)} / ${format(visits)} visits, ${format(pageviews)} pageviews (${seconds(started)})`,
      );
    }
  }
  if (group.linked) await linkIdentities(db, siteId);
  await db.query('drop table seed_people, seed_all');
  return visits;
}

/** The chunk's rows in visits, events and the daily rollups; resolves to its pageview count. */
async function insertChunk(db, siteId, visitColumns) {
  const values = visitColumns.map((name) => (name === 'site_id' ? siteId : VISIT_COLUMNS[name]));
  await db.query(`insert into visits (${visitColumns.join(', ')})
    select ${values.join(', ')} from seed_chunk order by started_at`);
  const [{ count }] = await db.query(`with inserted as (
      insert into events (site_id, event_id, type, visitor_id, visit_id, occurred_at, received_at, url, origin)
      select ${siteId}, 'p' || idx || '.' || n, 'pageview', vid, visit_id, at, at + interval '80 milliseconds', url, 'browser'
      from seed_pageviews order by at
      returning 1
    ) select count(*)::int as count from inserted`);
  await db.query(`insert into events (site_id, event_id, type, name, visitor_id, visit_id, occurred_at, received_at,
      url, properties, value_minor, currency, origin)
    select ${siteId}, 'c' || idx, 'event', name, vid, id, at, at + interval '80 milliseconds', url, properties,
      value_minor, currency, 'browser'
    from seed_conversions order by at`);
  // As touchtrail_ingest_visit_rollups: a visit on the day it started, a pageview on its own day.
  await db.query(`insert into daily_visits (site_id, day, source_kind, session_ai_source, visits, pageviews)
    select ${siteId}, day, kind, label, sum(visits), sum(pageviews) from (
      select (started_at at time zone 'UTC')::date as day, kind, label, 1 as visits, 0 as pageviews from seed_chunk
      union all
      select (at at time zone 'UTC')::date, kind, label, 0, 1 from seed_pageviews
    ) b group by day, kind, label order by day, kind, label
    on conflict (site_id, day, source_kind, session_ai_source) do update
      set visits = daily_visits.visits + excluded.visits, pageviews = daily_visits.pageviews + excluded.pageviews`);
  // As touchtrail_record_events: every custom event name is a goal and its properties are counted.
  await db.query(`insert into daily_goal_completions (site_id, day, name, completions)
    select ${siteId}, (at at time zone 'UTC')::date as day, name, count(*) from seed_conversions
    group by day, name order by day, name
    on conflict (site_id, day, name) do update
      set completions = daily_goal_completions.completions + excluded.completions`);
  await db.query(`insert into daily_goal_properties (site_id, name, day, pair, key, value, events)
    select ${siteId}, c.name, (c.at at time zone 'UTC')::date,
      md5(length(p.key)::text || ':' || p.key || p.value)::uuid, p.key, p.value, count(*)
    from seed_conversions c cross join lateral jsonb_each_text(c.properties) as p(key, value)
    group by 2, 3, 4, 5, 6 order by 2, 3, 4
    on conflict (site_id, name, day, pair) do update set events = daily_goal_properties.events + excluded.events`);
  return count;
}

/** One visitor in `linkedVisitorEvery` signs in (identify event and link); two visitor ids per person. */
async function linkIdentities(db, siteId) {
  const linked = `from seed_people where k % ${TRAFFIC.linkedVisitorEvery} = 0`;
  const personKey = `'u:' || encode(sha256(('person ' || (k / ${2 * TRAFFIC.linkedVisitorEvery}))::bytea), 'hex')`;
  await db.query(`insert into identity_links (site_id, person_key, visitor_id, created_at)
    select ${siteId}, ${personKey}, vid, first_at ${linked}`);
  await db.query(`insert into events (site_id, event_id, type, visitor_id, person_key, occurred_at, received_at, origin)
    select ${siteId}, 'i' || k, 'identify', vid, ${personKey}, first_at, first_at, 'browser' ${linked}`);
}

/**
 * What ingest keeps beside the visits: the first and last seen of the visitors with a visit
 * started from `since` on (all by default), and the goals.
 */
async function finishSite(db, site, registeredAt, since = new Date(0)) {
  await db.query(
    `insert into visitors (site_id, visitor_id, first_seen, last_seen)
     select site_id, visitor_id, min(started_at), max(last_activity_at) from visits
     where site_id = $1 and started_at >= $2::timestamptz group by site_id, visitor_id
     on conflict (site_id, visitor_id) do update
       set first_seen = least(visitors.first_seen, excluded.first_seen),
         last_seen = greatest(visitors.last_seen, excluded.last_seen)`,
    [site.id, since.toISOString()],
  );
  await db.query(
    `insert into goals (site_id, id, name, created_at, sort_order)
     select $1, gen_random_uuid(), name, $2::timestamptz, (ord - 1)::int
     from unnest(array[${CUSTOM_EVENTS.map((e) => lit(e.name)).join(', ')}]) with ordinality as g(name, ord)
     on conflict (site_id, name) do nothing`,
    [site.id, registeredAt.toISOString()],
  );
}

/** The big site's rows, to print beside the figures. */
export async function countRows(db, siteId) {
  const [row] = await db.query(
    `select (select count(*)::int from visits where site_id = $1) as visits,
       (select count(*)::int from visitors where site_id = $1) as visitors,
       (select count(*)::int from events where site_id = $1 and type = 'pageview') as pageviews,
       (select count(*)::int from events where site_id = $1 and type = 'event') as custom_events,
       (select count(*)::int from identity_links where site_id = $1) as identity_links`,
    [siteId],
  );
  return row;
}
