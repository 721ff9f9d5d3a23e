/** Row types of migrations/037_clickhouse_ship_order.sql and 038: the ship order and the cursors. */
import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp } from '../db/column-types.js';

/** Where a row stands in the ship order: set by the database on insert and on every update. */
interface ShipOrder {
  /** A `xid8`, read as its text. */
  ship_xid: Generated<string>;
  ship_seq: Generated<number>;
}

export interface ClickhouseShipCursorsTable {
  stream: string;
  ship_xid: ColumnType<string, string | undefined, string>;
  ship_seq: ColumnType<number, number | undefined, number>;
  shipped_rows: ColumnType<number, number | undefined, number>;
  shipped_at: NullableTimestamp;
  leased_by: string | null;
  leased_until: NullableTimestamp;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** migrations/038_postgres_holds_from.sql: PostgreSQL holds every row of the stream from then on. */
  pg_holds_from: NullableTimestamp;
}

export interface ClickhouseDeletionsTable {
  id: Generated<number>;
  stream: string;
  site_id: string;
  row_key: string;
  /** Versions older than this go; null (a deleted row): every version. */
  before_seq: number | null;
  deleted_xid: Generated<string>;
}

declare module '../db/types.js' {
  interface DB {
    clickhouse_ship_cursors: ClickhouseShipCursorsTable;
    clickhouse_deletions: ClickhouseDeletionsTable;
  }
}

declare module '../db/ingest-types.js' {
  interface EventsTable extends ShipOrder {}
  interface VisitsTable extends ShipOrder {}
  interface IdentityLinksTable extends ShipOrder {}
}

declare module '../db/crawler-types.js' {
  interface CrawlerHitsTable extends ShipOrder {}
}
