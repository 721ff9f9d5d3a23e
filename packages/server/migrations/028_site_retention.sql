-- Per-site retention, shorter than the defaults (issue 25; retention/retention.ts). Null keeps
-- the default: raw conversion records 365 days, visits and visitors with no time limit. Set,
-- every raw event of the site (all types) goes that many days after it happened and was
-- received, and visits that many days after they ended, then the visitors last seen before;
-- in both cases only over days whose visit rollups are built. Within interface §8's maximums.
alter table sites
  add column events_retention_days integer
    check (events_retention_days between 30 and 365),
  add column visits_retention_days integer
    check (visits_retention_days between 30 and 730);

-- The events purge walks a site's rows by time, type by type: pageviews and conversion
-- records have their own indexes (003, 017); these are the other two types.
create index events_other_time_idx on events (site_id, occurred_at)
  where type in ('identify', 'engagement');
