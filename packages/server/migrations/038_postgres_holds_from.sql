-- With ClickHouse on, raw traffic copied to it leaves PostgreSQL after TRAFFIC_PG_RETENTION_DAYS
-- (retention/copied-traffic-purge.ts). `pg_holds_from`: PostgreSQL holds every row of the stream
-- from this moment on, and may have let go of copied rows before it (null: it holds them all). A
-- report that cannot read ClickHouse reads PostgreSQL only over ranges from this moment on.
alter table clickhouse_ship_cursors add column pg_holds_from timestamptz;
