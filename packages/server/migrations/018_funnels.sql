-- Saved funnels (issue 20, DESIGN.md §7): ordered steps (page patterns or event names, checked
-- by the API before they are stored) and a conversion window.
create table funnels (
  site_id uuid not null references sites (id) on delete cascade,
  id uuid not null,
  name text not null,
  steps jsonb not null,
  window_hours integer not null check (window_hours between 1 and 2160),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (site_id, id)
);

-- A funnel report reads every pageview of its range. For a large site that is a tenth of the
-- table, where the btree of 017 (site, time) is costed as random reads, because the site's rows
-- are spread among other sites' and PostgreSQL judges by the first column; it then scans the
-- whole table instead, four times the work. Rows arrive in time order, so a block range index
-- on the time alone lets it read just the blocks of the range. It is tiny and cheap to keep.
create index events_time_brin on events using brin (occurred_at);
