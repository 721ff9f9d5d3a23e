-- Events and identity links, written by the ingest batch and by payments alike. Events whose
-- ids are stored already are skipped, and only the events actually inserted are added to the
-- goal rollups and get attribution jobs, so a retried or concurrently duplicated event counts
-- exactly once. Rollup rows are written in key order, so two writers take their row locks in
-- the same order.

-- Made before this folder existed, with table row types as arguments.
drop function if exists touchtrail_record_events(events[], identity_links[], timestamptz);

create or replace function touchtrail_record_events(
  p_events touchtrail_event[],
  p_links touchtrail_identity_link[],
  p_now timestamptz
)
returns void
language plpgsql
set plan_cache_mode = force_generic_plan
as $$
begin
  with inserted as (
    insert into events (site_id, event_id, type, name, visitor_id, person_key, visit_id,
      occurred_at, received_at, url, properties, value_minor, currency, origin)
    select e.site_id, e.event_id, e.type, e.name, e.visitor_id, e.person_key, e.visit_id,
      e.occurred_at, e.received_at, e.url, e.properties, e.value_minor, e.currency, e.origin
    from unnest(p_events) as e
    on conflict (site_id, event_id) do nothing
    returning site_id, event_id, type, name, occurred_at, properties
  ),
  conversions as (
    select site_id, event_id, name, (occurred_at at time zone 'UTC')::date as day, properties
    from inserted where type = 'event'
  ),
  completions as (
    insert into daily_goal_completions (site_id, day, name, completions)
    select site_id, day, name, count(*) from conversions
    group by site_id, day, name order by site_id, day, name
    on conflict (site_id, day, name) do update
      set completions = daily_goal_completions.completions + excluded.completions
  ),
  -- Payments and trials are reserved names (goals/goal-names.ts) that the property report
  -- refuses, so their properties are not rolled up.
  property_values as (
    insert into daily_goal_properties (site_id, name, day, pair, key, value, events)
    select c.site_id, c.name, c.day, md5(length(p.key)::text || ':' || p.key || p.value)::uuid,
      p.key, p.value, count(*)
    from conversions c
    cross join lateral jsonb_each_text(c.properties) as p(key, value)
    where jsonb_typeof(c.properties) = 'object' and p.value is not null
      and c.name not in ('payment', 'trial')
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4
    on conflict (site_id, name, day, pair) do update
      set events = daily_goal_properties.events + excluded.events
  )
  insert into attribution_jobs (site_id, event_id, run_after, created_at)
  select site_id, event_id, p_now, p_now from conversions order by site_id, event_id
  on conflict (site_id, event_id) do nothing;

  if cardinality(p_links) > 0 then
    insert into identity_links (site_id, person_key, visitor_id, created_at)
    select l.site_id, l.person_key, l.visitor_id, l.created_at from unnest(p_links) as l
    on conflict (site_id, person_key, visitor_id) do nothing;
  end if;
end
$$;
