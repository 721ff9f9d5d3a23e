-- Goals: an event name registers the first time it is recorded, while the site holds fewer
-- than p_goal_limit goals. Under the registry's lock, as the goals API takes it.
create or replace function touchtrail_ingest_register_goals(
  p_items touchtrail_ingest_item[],
  p_codes text[],
  p_site_ids uuid[],
  p_now timestamptz,
  p_goal_limit integer
)
returns void
language plpgsql
set plan_cache_mode = force_generic_plan
as $$
declare
  goal record;
  unknown_names text[];
  goal_count integer;
begin
  for goal in
    select n.site_id, array_agg(n.name order by n.first) as names
    from (
      select p_site_ids[i.ord] as site_id, i.name, min(i.ord) as first
      from unnest(p_items) as i
      where p_codes[i.ord] = 'r' and i.type = 'event' and i.is_goal
      group by 1, 2
    ) as n
    group by n.site_id
    order by n.site_id
  loop
    unknown_names := array(
      select x.name from unnest(goal.names) with ordinality as x(name, n)
      where not exists (select 1 from goals g where g.site_id = goal.site_id and g.name = x.name)
      order by x.n);
    if cardinality(unknown_names) > 0 then
      perform pg_advisory_xact_lock(touchtrail_goals_lock_id(goal.site_id));
      select count(*) into goal_count from goals where site_id = goal.site_id;
      insert into goals (site_id, id, name, created_at)
      select goal.site_id, gen_random_uuid(), x.name, p_now
      from unnest(unknown_names[1:greatest(0, p_goal_limit - goal_count)]) as x(name)
      on conflict (site_id, name) do nothing;
    end if;
  end loop;
end
$$;
