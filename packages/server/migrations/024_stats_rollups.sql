-- Visit rollups for the stats query (stats/rollups/). Per site, UTC day, visit dimension and
-- value (dimension 'total' with value '' for the whole day; '' stands for a null value): the
-- visits that started that day, their pageviews, bounces and engaged seconds, and the people
-- behind them as a mergeable sketch (stats/rollups/people-sketch.ts). Written by a background
-- job for days whose visits have all ended, never by ingest: a closed visit never changes, so a
-- day is built once, and again only when an identity link made later merges its people.
create table stats_visit_rollups (
  site_id uuid not null,
  dimension text not null,
  day date not null,
  value text not null,
  visits integer not null,
  pageviews integer not null,
  bounces integer not null,
  engaged_seconds bigint not null,
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
