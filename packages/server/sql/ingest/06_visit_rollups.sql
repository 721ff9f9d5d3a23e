-- Daily visit rollups: a visit counts on the day it started, a pageview on its own day, both
-- under the source of their visit. Rows are written in key order (see touchtrail_record_events).
create or replace function touchtrail_ingest_visit_rollups(
  p_items touchtrail_ingest_item[],
  p_codes text[],
  p_visit_ids uuid[],
  p_touched visits[],
  p_started uuid[]
)
returns void
language plpgsql
set plan_cache_mode = force_generic_plan
as $$
begin
  if cardinality(p_touched) = 0 then return; end if;
  insert into daily_visits (site_id, day, source_kind, session_ai_source, visits, pageviews)
  select b.site_id, b.day, b.source_kind, b.session_ai_source, sum(b.visits), sum(b.pageviews)
  from (
    select v.site_id, (v.started_at at time zone 'UTC')::date as day, v.source_kind, v.session_ai_source,
      1 as visits, 0 as pageviews
    from unnest(p_touched) as v where v.id = any(p_started)
    union all
    select v.site_id, (to_timestamp(i.occurred_ms / 1000) at time zone 'UTC')::date, v.source_kind,
      v.session_ai_source, 0, 1
    from unnest(p_items) as i
    join unnest(p_touched) as v on v.id = p_visit_ids[i.ord]
    where i.type = 'pageview' and p_codes[i.ord] = 'r'
  ) as b
  group by 1, 2, 3, 4 order by 1, 2, 3, 4
  on conflict (site_id, day, source_kind, session_ai_source) do update
    set visits = daily_visits.visits + excluded.visits,
      pageviews = daily_visits.pageviews + excluded.pageviews;
end
$$;
