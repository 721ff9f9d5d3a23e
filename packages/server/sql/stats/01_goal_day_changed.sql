-- Goal rollups (migrations/032_goal_rollups.sql, stats/rollups/goal-rollup-day.ts).
-- A conversion for a day before the current UTC day marks that day's goals to be built again
-- (built_at null). The marker row is written, not only updated, so that the writer and a build
-- of the same day take turns on it: a build that sets built_at after this insert's transaction
-- committed reads its event, and one that set it before is undone by this. Conversions of the
-- current day (nearly all of them) skip the trigger: no build reads a day before it has ended.
create or replace function touchtrail_goal_day_changed() returns trigger
language plpgsql as $$
begin
  insert into stats_goal_rollup_days (site_id, day, built_at)
  values (new.site_id, (new.occurred_at at time zone 'UTC')::date, null)
  on conflict (site_id, day) do update set built_at = null
  where stats_goal_rollup_days.built_at is not null;
  return null;
end;
$$;

create or replace trigger events_goal_day_changed
after insert on events
for each row
when (new.type = 'event' and new.occurred_at < date_trunc('day', now() at time zone 'UTC') at time zone 'UTC')
execute function touchtrail_goal_day_changed();
