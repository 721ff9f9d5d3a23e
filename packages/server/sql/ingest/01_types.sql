-- The shapes the ingest functions pass between them. Each is our own type, so a column added
-- to a table never shifts a row these functions build; every insert names its columns.
-- Dropped with cascade and made again: the whole folder is applied together (db/sql-sources.ts),
-- so the functions that take these types are made again just after.

-- How long a visit stays open after its last activity (DESIGN.md §4). The one owner of the
-- rule: the visit rules below and the reports that tie a payment to its visit
-- (visits/visit-conversions.sql.ts) both call it.
create or replace function touchtrail_visit_idle() returns interval
language sql immutable parallel safe
as $$ select interval '30 minutes' $$;

drop type if exists touchtrail_ingest_item cascade;
drop type if exists touchtrail_event cascade;
drop type if exists touchtrail_identity_link cascade;

-- One item of a batch as the server sends it (ingest/ingest.store.ts builds them). Times are
-- epoch milliseconds. The source fields are the item's classification, made with the site
-- facts the server knew (domain, cookie apex, currency; see touchtrail_ingest_outcomes).
create type touchtrail_ingest_item as (
  ord integer,
  snippet_key text,
  -- A server event's key: its account and, when restricted, its one site.
  account_id uuid,
  site_ref uuid,
  origin text,
  type text,
  event_id text,
  visitor_id text,
  person_key text,
  -- A server event's email key when its user id is the person (linked a millisecond later).
  email_key text,
  name text,
  is_goal boolean,
  url text,
  properties jsonb,
  value_minor bigint,
  currency text,
  engaged_seconds integer,
  occurred_ms float8,
  received_ms float8,
  source_kind text,
  session_ai_source text,
  source_name text,
  source_key text,
  campaign text,
  utm_source text,
  utm_medium text,
  utm_content text,
  utm_term text,
  ref text,
  device_type text,
  os text,
  browser text,
  country_code text,
  city text
);

-- An event to record (touchtrail_record_events), from the ingest batch or a payment.
create type touchtrail_event as (
  site_id uuid,
  event_id text,
  type text,
  name text,
  visitor_id text,
  person_key text,
  visit_id uuid,
  occurred_at timestamptz,
  received_at timestamptz,
  url text,
  properties jsonb,
  value_minor bigint,
  currency text,
  origin text
);

-- A visitor id tied to a person (identify, server events, payments).
create type touchtrail_identity_link as (
  site_id uuid,
  person_key text,
  visitor_id text,
  created_at timestamptz
);
