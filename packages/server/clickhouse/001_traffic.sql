-- The traffic history the shipper copies from PostgreSQL (src/clickhouse/shipper.ts). Every
-- table keeps the latest version of a row by its ship sequence number (ReplacingMergeTree), so a
-- row copied twice, or copied again after an update, counts once; readers use FINAL. Money never
-- comes here: amounts stay in PostgreSQL. `{database}` is the configured database; with
-- CLICKHOUSE_CLUSTER each table is created on every node as a replicated `_local` table behind a
-- Distributed table of this name (src/clickhouse/schema.ts).

CREATE TABLE IF NOT EXISTS {database}.events (
  site_id UUID,
  event_id String,
  type LowCardinality(String),
  name Nullable(String),
  visitor_id Nullable(String),
  person_key Nullable(String),
  visit_id Nullable(UUID),
  occurred_at DateTime64(3, 'UTC'),
  received_at DateTime64(3, 'UTC'),
  url Nullable(String),
  path Nullable(String),
  properties Nullable(String),
  origin LowCardinality(String),
  -- The visit's attributes that never change after its first event, so page reports filtered
  -- by a visit dimension read no second table.
  source_kind LowCardinality(String),
  session_ai_source LowCardinality(String),
  source_name String,
  campaign String,
  utm_source String,
  utm_medium String,
  utm_content String,
  utm_term String,
  entry_path Nullable(String),
  device_type LowCardinality(String),
  os LowCardinality(String),
  browser LowCardinality(String),
  country_code LowCardinality(String),
  city String,
  is_new Bool,
  ship_seq UInt64
)
ENGINE = ReplacingMergeTree(ship_seq)
PARTITION BY toYYYYMM(occurred_at)
ORDER BY (site_id, type, toDate(occurred_at), event_id)
SETTINGS non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS {database}.visits (
  site_id UUID,
  id UUID,
  visitor_id String,
  started_at DateTime64(3, 'UTC'),
  last_activity_at DateTime64(3, 'UTC'),
  entry_url String,
  exit_url String,
  -- The paths of the two URLs by PostgreSQL's one rule (touchtrail_url_path), copied with them.
  entry_path Nullable(String),
  exit_path Nullable(String),
  source_kind LowCardinality(String),
  session_ai_source LowCardinality(String),
  source_name String,
  campaign String,
  utm_source String,
  utm_medium String,
  utm_content String,
  utm_term String,
  device_type LowCardinality(String),
  os LowCardinality(String),
  browser LowCardinality(String),
  country_code LowCardinality(String),
  city String,
  pageviews UInt32,
  engaged_seconds UInt32,
  is_new Bool,
  ship_seq UInt64
)
ENGINE = ReplacingMergeTree(ship_seq)
PARTITION BY toYYYYMM(started_at)
ORDER BY (site_id, toDate(started_at), id)
SETTINGS non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS {database}.identity_links (
  site_id UUID,
  person_key String,
  visitor_id String,
  created_at DateTime64(3, 'UTC'),
  ship_seq UInt64
)
ENGINE = ReplacingMergeTree(ship_seq)
ORDER BY (site_id, visitor_id, person_key)
SETTINGS non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS {database}.crawler_hits (
  site_id UUID,
  id UUID,
  crawler LowCardinality(String),
  operator LowCardinality(String),
  purpose LowCardinality(String),
  path String,
  status Nullable(UInt16),
  occurred_at DateTime64(3, 'UTC'),
  received_at DateTime64(3, 'UTC'),
  verified Nullable(Bool),
  ship_seq UInt64
)
ENGINE = ReplacingMergeTree(ship_seq)
PARTITION BY toYYYYMM(occurred_at)
ORDER BY (site_id, toDate(occurred_at), id)
SETTINGS non_replicated_deduplication_window = 1000;
