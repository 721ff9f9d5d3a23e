-- Conversion reports (stats/conversion-grain.ts) read every conversion event of their range: a
-- year of goals on a large site is 150,000 events, each on its own heap page among the
-- pageviews. The time index of conversion events now carries the columns those reports read
-- (goal, person, visit, value), so they read the index alone (bench/RESULTS.md, 2026-11-29).
drop index events_site_time_idx;
create index events_site_time_idx on events (site_id, occurred_at desc)
  include (name, visitor_id, person_key, visit_id, currency, value_minor)
  where type = 'event';
