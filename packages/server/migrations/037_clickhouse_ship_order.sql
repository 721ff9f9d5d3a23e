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

-- Rows deleted from PostgreSQL, and earlier versions of rows whose person was detached (privacy
-- erasure), to be deleted from ClickHouse too: the shipper applies them after the copies of their
-- stream, and reports leave them out until it has. `before_seq`: versions older than this go
-- (null, for a deleted row: all of them). Kept only while ClickHouse is on (`enabled` below), so a server
-- without it never fills this table.
create table clickhouse_deletions (
  id bigserial primary key,
  stream text not null,
  site_id uuid not null,
  row_key text not null,
  before_seq bigint,
  deleted_xid xid8 not null default pg_current_xact_id()
);
create index clickhouse_deletions_site_idx on clickhouse_deletions (site_id, stream);

alter table clickhouse_ship_cursors add column enabled boolean not null default false;

-- A delete that is meant to leave ClickHouse's copy (PostgreSQL kept short once rows are copied)
-- sets touchtrail.keep_in_clickhouse = 'on' for its transaction.
create function touchtrail_queue_clickhouse_deletions() returns trigger language plpgsql as $$
begin
  if coalesce(current_setting('touchtrail.keep_in_clickhouse', true), '') = 'on'
    or not exists (select 1 from clickhouse_ship_cursors where stream = tg_argv[0] and enabled) then
    return null;
  end if;
  -- A site being erased is deleted from ClickHouse whole, at the end (sites/site-erasure.ts).
  if tg_argv[0] = 'events' then
    insert into clickhouse_deletions (stream, site_id, row_key, before_seq)
    select 'events', site_id, event_id, null from gone where not exists (select 1 from sites s where s.id = gone.site_id and s.erasure_started_at is not null);
  elsif tg_argv[0] = 'visits' then
    insert into clickhouse_deletions (stream, site_id, row_key, before_seq)
    select 'visits', site_id, id::text, null from gone where not exists (select 1 from sites s where s.id = gone.site_id and s.erasure_started_at is not null);
  elsif tg_argv[0] = 'identity_links' then
    insert into clickhouse_deletions (stream, site_id, row_key, before_seq)
    select 'identity_links', site_id, visitor_id || chr(1) || person_key, null from gone where not exists (select 1 from sites s where s.id = gone.site_id and s.erasure_started_at is not null);
  else
    insert into clickhouse_deletions (stream, site_id, row_key, before_seq)
    select 'crawler_hits', site_id, id::text, null from gone where not exists (select 1 from sites s where s.id = gone.site_id and s.erasure_started_at is not null);
  end if;
  return null;
end $$;

create trigger events_clickhouse_deletions after delete on events
  referencing old table as gone for each statement execute function touchtrail_queue_clickhouse_deletions('events');
create trigger visits_clickhouse_deletions after delete on visits
  referencing old table as gone for each statement execute function touchtrail_queue_clickhouse_deletions('visits');
create trigger identity_links_clickhouse_deletions after delete on identity_links
  referencing old table as gone for each statement execute function touchtrail_queue_clickhouse_deletions('identity_links');
create trigger crawler_hits_clickhouse_deletions after delete on crawler_hits
  referencing old table as gone for each statement execute function touchtrail_queue_clickhouse_deletions('crawler_hits');

-- An event whose person is detached keeps its row, copied again with the ids gone; the copies
-- that still name the person are deleted from ClickHouse.
create function touchtrail_queue_clickhouse_detached() returns trigger language plpgsql as $$
begin
  if exists (select 1 from clickhouse_ship_cursors where stream = 'events' and enabled) then
    insert into clickhouse_deletions (stream, site_id, row_key, before_seq)
    values ('events', new.site_id, new.event_id, new.ship_seq);
  end if;
  return null;
end $$;

create trigger events_clickhouse_detached after update on events
  for each row when (old.visitor_id is distinct from new.visitor_id or old.person_key is distinct from new.person_key)
  execute function touchtrail_queue_clickhouse_detached();
