-- Imports of a site's history from another analytics tool (src/imports/, DESIGN.md §14).
-- The uploaded file is kept in `import_file_chunks` until the import ends, so a worker that takes
-- over after a crash reads the same bytes. Rows read from it are staged per import
-- (`import_hits` for tools that export single pageviews and events, `import_day_rows` for tools
-- that export daily counts) with the count of rows staged recorded in the same transaction, so a
-- resumed import skips what is staged and stages nothing twice. The import completes by writing
-- its daily counts to `imported_days` in one transaction: until then reports see nothing of it.
create table imports (
  id uuid primary key,
  site_id uuid not null references sites (id) on delete cascade,
  source text not null check (source in ('plausible', 'umami', 'ga4', 'matomo')),
  status text not null default 'pending'
    check (status in ('pending', 'running', 'completed', 'failed', 'cancelled')),
  -- The file: its SHA-256 (a retried upload of the same file answers the same import) and size.
  file_sha256 text not null,
  bytes_total bigint not null,
  bytes_read bigint not null default 0,
  rows_read bigint not null default 0,
  rows_refused bigint not null default 0,
  -- The days the import holds once completed; `native_from`: the site's first day of its own
  -- traffic when it completed (days from it on were left out).
  date_from date,
  date_to date,
  native_from date,
  error_line bigint,
  error_message text,
  attempts integer not null default 0,
  locked_by text,
  locked_until timestamptz,
  created_at timestamptz not null,
  finished_at timestamptz
);
create index imports_site_idx on imports (site_id, created_at);
create index imports_open_idx on imports (created_at) where status in ('pending', 'running');
-- One live import per file and site: a retried upload finds the first.
create unique index imports_same_file_idx on imports (site_id, source, file_sha256)
  where status in ('pending', 'running', 'completed');

-- Written while the upload streams in, before the import row exists (its id is chosen first);
-- chunks of an upload that never finished are deleted by the import job after a day.
create table import_file_chunks (
  import_id uuid not null,
  seq integer not null,
  bytes bytea not null,
  written_at timestamptz not null,
  primary key (import_id, seq)
);

create table import_hits (
  import_id uuid not null references imports (id) on delete cascade,
  seq bigint not null,
  visitor_key text not null,
  session_key text not null,
  at timestamptz not null,
  is_pageview boolean not null,
  path text not null,
  name text not null,
  -- The classification of the hit's referrer and campaign; '' key: internal or direct.
  source_key text not null,
  source_kind text not null,
  session_ai_source text not null,
  source_name text not null,
  utm_source text not null,
  utm_medium text not null,
  utm_campaign text not null,
  utm_content text not null,
  utm_term text not null,
  country text not null,
  device text not null,
  browser text not null,
  os text not null,
  engaged_seconds integer not null,
  primary key (import_id, seq)
);

create table import_day_rows (
  import_id uuid not null references imports (id) on delete cascade,
  seq bigint not null,
  day date not null,
  dimension text not null,
  value text not null,
  visitors bigint not null,
  visits bigint not null,
  pageviews bigint not null,
  bounces bigint not null,
  duration_seconds bigint not null,
  events bigint not null,
  primary key (import_id, seq)
);

-- One row per import, UTC day, dimension and value: `dimension` is '' for the day's totals, else
-- a stats dimension (`visit:channel`, `event:page`, `event:goal`, …) and `value` its value ('' for
-- none). Visitors are the day's; a range sums its days.
create table imported_days (
  import_id uuid not null references imports (id) on delete cascade,
  site_id uuid not null references sites (id) on delete cascade,
  day date not null,
  dimension text not null,
  value text not null,
  visitors bigint not null,
  visits bigint not null,
  pageviews bigint not null,
  bounces bigint not null,
  duration_seconds bigint not null,
  events bigint not null,
  primary key (import_id, dimension, day, value)
);
create index imported_days_site_idx on imported_days (site_id, dimension, day);
