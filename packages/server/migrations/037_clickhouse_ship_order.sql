-- Where each traffic row stands in the order the ClickHouse shipper copies rows in
-- (src/clickhouse/shipper.ts): the transaction that wrote the row's latest version and a number
-- from one sequence. A transaction older than every running one has finished, so the rows it
-- wrote never change place again: the shipper copies only those, in (ship_xid, ship_seq) order,
-- and its cursor never passes a row that commits later. An update restamps the row, so its new
-- version is copied again (ClickHouse keeps the latest version of each row).
create sequence traffic_ship_seq;

create function touchtrail_restamp_ship() returns trigger language plpgsql as $$
begin
  new.ship_xid := pg_current_xact_id();
  new.ship_seq := nextval('traffic_ship_seq');
  return new;
end $$;

alter table events
  add column ship_xid xid8 not null default pg_current_xact_id(),
  add column ship_seq bigint not null default nextval('traffic_ship_seq');
alter table visits
  add column ship_xid xid8 not null default pg_current_xact_id(),
  add column ship_seq bigint not null default nextval('traffic_ship_seq');
alter table identity_links
  add column ship_xid xid8 not null default pg_current_xact_id(),
  add column ship_seq bigint not null default nextval('traffic_ship_seq');
alter table crawler_hits
  add column ship_xid xid8 not null default pg_current_xact_id(),
  add column ship_seq bigint not null default nextval('traffic_ship_seq');

create index events_ship_order_idx on events (ship_xid, ship_seq);
create index visits_ship_order_idx on visits (ship_xid, ship_seq);
create index identity_links_ship_order_idx on identity_links (ship_xid, ship_seq);
create index crawler_hits_ship_order_idx on crawler_hits (ship_xid, ship_seq);

create trigger events_restamp_ship before update on events
  for each row execute function touchtrail_restamp_ship();
create trigger visits_restamp_ship before update on visits
  for each row execute function touchtrail_restamp_ship();
create trigger identity_links_restamp_ship before update on identity_links
  for each row execute function touchtrail_restamp_ship();
create trigger crawler_hits_restamp_ship before update on crawler_hits
  for each row execute function touchtrail_restamp_ship();

-- One row per copied stream: how far it has been copied, and which worker holds its lease (a
-- lease, not a lock held across the copy: a slow ClickHouse never holds a PostgreSQL transaction).
create table clickhouse_ship_cursors (
  stream text primary key,
  ship_xid xid8 not null default '0',
  ship_seq bigint not null default 0,
  shipped_rows bigint not null default 0,
  shipped_at timestamptz,
  leased_by text,
  leased_until timestamptz
);
insert into clickhouse_ship_cursors (stream)
values ('events'), ('visits'), ('identity_links'), ('crawler_hits');
