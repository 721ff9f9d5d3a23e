-- Rollups for the stats query (stats/rollups/). Per site, UTC day, dimension and value ('' stands
-- for a null value):
--   * each visit dimension, and 'total' (value '') for the whole day: the visits that started
--     that day, their pageviews, bounces and engaged seconds;
--   * 'event:page', per path: the pageviews of that day, the visits that viewed the page that
--     day, and of those the visits that had viewed it the day before too (`continued_visits`,
--     so that a visit across midnight counts once over both days);
-- each with the people behind them as a mergeable sketch (stats/rollups/people-sketch.ts).
-- Written by a background job for days whose visits have all ended, never by ingest: a closed
-- visit never changes, so a day is built once, and again only when an identity link made later
-- merges its people.
create table stats_visit_rollups (
  site_id uuid not null,
  dimension text not null,
  day date not null,
  value text not null,
  visits integer not null,
  pageviews integer not null,
  bounces integer not null,
  engaged_seconds bigint not null,
  continued_visits integer not null,
  people bytea not null,
  primary key (site_id, dimension, day, value)
);

-- The days whose rollups are complete: reports read the rollups for these and the raw visits
-- for the others. Removed (with the day's rows) when the day must be built again.
create table stats_rollup_days (
  site_id uuid not null,
  day date not null,
  built_at timestamptz not null,
  primary key (site_id, day)
);

-- Per site, up to when identity links were checked for days they make stale.
create table stats_rollup_sites (
  site_id uuid primary key,
  links_checked_at timestamptz not null
);

create index identity_links_created_idx on identity_links (site_id, created_at);

-- Whole months, merged from their days once every day of the month is built, so that a long
-- range reads a row per month instead of one per day: the same figures per dimension and value,
-- with `month` its first day. A page's visits are counted once over the month, and its
-- `continued_visits` are those of the month's first day. Dropped with any day of the month that
-- must be built again.
create table stats_month_rollups (
  site_id uuid not null,
  dimension text not null,
  month date not null,
  value text not null,
  visits integer not null,
  pageviews integer not null,
  bounces integer not null,
  engaged_seconds bigint not null,
  continued_visits integer not null,
  people bytea not null,
  primary key (site_id, dimension, month, value)
);

create table stats_rollup_months (
  site_id uuid not null,
  month date not null,
  built_at timestamptz not null,
  primary key (site_id, month)
);
