-- The site export's index (029) began with the primary key's first column and held its second,
-- so on a table without planner statistics (a fresh database, PGlite, PostgreSQL without
-- autovacuum) the ingest's duplicate check (site_id and event_id, planned once per connection)
-- could pick it over the primary key and walk every event of the site for each item: ingest
-- fell from about 9,000 to 1,300 events a second (bench/RESULTS.md, "Ingest regression").
-- Partial on a condition every row meets, it serves only queries that bound occurred_at, as
-- the export's pages do, and the duplicate check has the primary key alone.
drop index events_site_occurred_idx;
create index events_site_occurred_idx on events (site_id, occurred_at, event_id) where occurred_at is not null;
