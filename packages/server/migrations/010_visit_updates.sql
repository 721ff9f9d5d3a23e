-- Every pageview updates its visit (last activity, pageviews). With last_activity_at in an index
-- each of those updates wrote three index entries; keyed on started_at, which never changes,
-- and with room left on each page, PostgreSQL can update the row in place (a HOT update).
-- The latest visit of a visitor is the one started last: a visitor's visits never overlap.
drop index visits_visitor_idx;
create index visits_visitor_idx on visits (site_id, visitor_id, started_at desc);
alter table visits set (fillfactor = 80);
