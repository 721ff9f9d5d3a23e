-- The data path: events as they arrive, visits built from them, people behind visitor ids,
-- goals registered from event names, daily rollups that reports read, and an outbox of facts
-- for webhooks. Every table here is per-site: site_id leads every primary key.

-- One row per accepted payload (pageview, custom event, identify, engagement). The primary
-- key is the client's or server's event id, so a retried request is stored once.
create table events (
  site_id uuid not null,
  event_id text not null,
  type text not null check (type in ('pageview', 'event', 'identify', 'engagement')),
  name text,
  visitor_id text,
  person_key text,
  visit_id uuid,
  occurred_at timestamptz not null,
  received_at timestamptz not null,
  url text,
  properties jsonb,
  value_minor bigint,
  currency text,
  origin text not null check (origin in ('browser', 'server')),
  primary key (site_id, event_id)
);
create index events_conversions_idx on events (site_id, name, occurred_at desc) where type = 'event';
create index events_site_time_idx on events (site_id, occurred_at desc) where type = 'event';
create index events_visitor_idx on events (site_id, visitor_id, occurred_at desc) where type = 'event';

create table visits (
  site_id uuid not null,
  id uuid not null,
  visitor_id text not null,
  started_at timestamptz not null,
  last_activity_at timestamptz not null,
  entry_url text not null default '',
  source_kind text not null check (source_kind in ('ai', 'non_ai', 'unknown')),
  session_ai_source text not null,
  source_name text not null default '',
  -- What made the visit's source: compared with a later arrival to tell a new external source.
  source_key text not null default '',
  campaign text not null default '',
  ref text not null default '',
  device_type text not null default '',
  os text not null default '',
  browser text not null default '',
  country_code text not null default '',
  city text not null default '',
  pageviews integer not null default 0,
  engaged_seconds integer not null default 0,
  is_new boolean not null,
  primary key (site_id, id)
);
create index visits_visitor_idx on visits (site_id, visitor_id, last_activity_at desc);
create index visits_started_idx on visits (site_id, started_at desc);

create table visitors (
  site_id uuid not null,
  visitor_id text not null,
  first_seen timestamptz not null,
  last_seen timestamptz not null,
  primary key (site_id, visitor_id)
);

-- identify() and server events tie visitor ids to a person: an HMAC of a user id or of an
-- email address (never the address itself). Visitor ids sharing a person key are one person.
create table identity_links (
  site_id uuid not null,
  person_key text not null,
  visitor_id text not null,
  created_at timestamptz not null,
  primary key (site_id, person_key, visitor_id)
);
create index identity_links_visitor_idx on identity_links (site_id, visitor_id);

create table goals (
  site_id uuid not null,
  id uuid not null,
  name text not null,
  display_name text,
  emoji text,
  sort_order integer not null default 0 check (sort_order between 0 and 10000),
  created_at timestamptz not null,
  archived_at timestamptz,
  primary key (site_id, id),
  unique (site_id, name)
);

create table daily_goal_completions (
  site_id uuid not null,
  day date not null,
  name text not null,
  completions integer not null,
  primary key (site_id, day, name)
);

create table daily_visits (
  site_id uuid not null,
  day date not null,
  source_kind text not null,
  session_ai_source text not null,
  visits integer not null default 0,
  pageviews integer not null default 0,
  primary key (site_id, day, source_kind, session_ai_source)
);

-- Facts for outbound webhooks, written in the same transaction as the fact itself.
create table outbox_events (
  site_id uuid not null,
  id uuid not null,
  type text not null,
  dedupe_key text not null,
  payload jsonb not null,
  created_at timestamptz not null,
  primary key (site_id, id),
  unique (site_id, type, dedupe_key)
);
create index outbox_events_created_idx on outbox_events (created_at);
