-- Rollups of conversion events (type 'event') for the stats query (stats/rollups/goal-rollup-day.ts),
-- per site, UTC day and goal (event name): the events a site sent, all conversions, and the
-- people behind them as a sketch with its count; and beside them the summed value of the events
-- a site sent, per currency, which the reports convert at each day's rate.
create table stats_goal_rollups (
  site_id uuid not null,
  day date not null,
  name text not null,
  events integer not null,
  conversions integer not null,
  people bytea not null,
  people_count integer not null,
  primary key (site_id, day, name)
);

create table stats_goal_value_rollups (
  site_id uuid not null,
  day date not null,
  name text not null,
  currency text not null,
  value_minor numeric not null,
  primary key (site_id, day, name, currency)
);

-- The days whose goal rollups are complete (`built_at` set): reports read the rollups for these
-- and the raw events for the others. Kept apart from stats_rollup_days because conversions, and
-- payments above all, may be sent for any past day (interface §4.4): such a day's goals are
-- built again, but not its visits, which retention may have purged since.
create table stats_goal_rollup_days (
  site_id uuid not null,
  day date not null,
  built_at timestamptz,
  primary key (site_id, day)
);

-- The trigger on events that marks a day's goals to be built again is code: sql/stats/01_goal_day_changed.sql.
