/**
 * The columns of the ClickHouse traffic tables (packages/server/clickhouse/001_traffic.sql) with
 * their types, for reading rows that are not yet copied as a table of the same shape
 * (`format(JSONEachRow, …)`); clickhouse.schema.test.ts checks them against the tables.
 */
export const TRAFFIC_COLUMNS = {
  events: {
    site_id: 'UUID',
    event_id: 'String',
    type: 'LowCardinality(String)',
    name: 'Nullable(String)',
    visitor_id: 'Nullable(String)',
    person_key: 'Nullable(String)',
    visit_id: 'Nullable(UUID)',
    occurred_at: "DateTime64(3, 'UTC')",
    received_at: "DateTime64(3, 'UTC')",
    url: 'Nullable(String)',
    path: 'Nullable(String)',
    properties: 'Nullable(String)',
    origin: 'LowCardinality(String)',
    source_kind: 'LowCardinality(String)',
    session_ai_source: 'LowCardinality(String)',
    source_name: 'String',
    campaign: 'String',
    utm_source: 'String',
    utm_medium: 'String',
    utm_content: 'String',
    utm_term: 'String',
    entry_path: 'Nullable(String)',
    device_type: 'LowCardinality(String)',
    os: 'LowCardinality(String)',
    browser: 'LowCardinality(String)',
    country_code: 'LowCardinality(String)',
    city: 'String',
    is_new: 'Bool',
    ship_seq: 'UInt64',
  },
  visits: {
    site_id: 'UUID',
    id: 'UUID',
    visitor_id: 'String',
    started_at: "DateTime64(3, 'UTC')",
    last_activity_at: "DateTime64(3, 'UTC')",
    entry_url: 'String',
    exit_url: 'String',
    entry_path: 'Nullable(String)',
    exit_path: 'Nullable(String)',
    source_kind: 'LowCardinality(String)',
    session_ai_source: 'LowCardinality(String)',
    source_name: 'String',
    campaign: 'String',
    utm_source: 'String',
    utm_medium: 'String',
    utm_content: 'String',
    utm_term: 'String',
    device_type: 'LowCardinality(String)',
    os: 'LowCardinality(String)',
    browser: 'LowCardinality(String)',
    country_code: 'LowCardinality(String)',
    city: 'String',
    pageviews: 'UInt32',
    engaged_seconds: 'UInt32',
    is_new: 'Bool',
    ship_seq: 'UInt64',
  },
  identity_links: {
    site_id: 'UUID',
    person_key: 'String',
    visitor_id: 'String',
    created_at: "DateTime64(3, 'UTC')",
    ship_seq: 'UInt64',
  },
  crawler_hits: {
    site_id: 'UUID',
    id: 'UUID',
    crawler: 'LowCardinality(String)',
    operator: 'LowCardinality(String)',
    purpose: 'LowCardinality(String)',
    path: 'String',
    status: 'Nullable(UInt16)',
    occurred_at: "DateTime64(3, 'UTC')",
    received_at: "DateTime64(3, 'UTC')",
    verified: 'Nullable(Bool)',
    ship_seq: 'UInt64',
  },
} as const;

export type TrafficTable = keyof typeof TRAFFIC_COLUMNS;

/** A table's structure as `format()` takes it: `name Type, …`. */
export const structureOf = (table: TrafficTable) =>
  Object.entries(TRAFFIC_COLUMNS[table])
    .map(([name, type]) => `${name} ${type}`)
    .join(', ');

/**
 * What names one row of each table, as ClickHouse computes it and as the deletion queue
 * (migrations/037) and the uncopied rows write it: identity links by visitor and person key.
 */
export const ROW_KEY_SQL: Record<TrafficTable, string> = {
  events: 'event_id',
  visits: 'toString(id)',
  identity_links: "concat(visitor_id, '\\x01', person_key)",
  crawler_hits: 'toString(id)',
};

export const rowKeyOf = (table: TrafficTable, row: Record<string, unknown>): string => {
  switch (table) {
    case 'events':
      return String(row.event_id);
    case 'identity_links':
      return `${row.visitor_id}\u0001${row.person_key}`;
    default:
      return String(row.id);
  }
};
