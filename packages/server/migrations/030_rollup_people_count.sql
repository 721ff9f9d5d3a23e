-- The count of each rollup row's people sketch, so that a breakdown ordered by visitors can
-- bound every value's people without reading its sketch, and read the sketches only of the
-- values that can reach the rows asked for (stats/rollups/rollup-reader.ts). Null on rows built
-- before this column: the rollup job counts them in batches (rollup-people-counts.ts), and until
-- then a reader treats a null as unbounded.
alter table stats_visit_rollups add column people_count integer;
alter table stats_month_rollups add column people_count integer;

-- Empty once those rows are counted; rows built from now on carry their count.
create index stats_visit_rollups_uncounted_idx on stats_visit_rollups (site_id) where people_count is null;
create index stats_month_rollups_uncounted_idx on stats_month_rollups (site_id) where people_count is null;
