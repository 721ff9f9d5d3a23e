-- One ingest batch, in the transaction of the statement that calls it (ingest/ingest.store.ts).
-- Its steps are the `database` steps of ingest/pipeline.ts, in that order (pipeline.test.ts).
-- Returns a letter per item, in order (see touchtrail_ingest_outcomes; ingest.store.ts names
-- them): r recorded, d duplicate, u unknown site, x site scheduled for deletion, s stale site
-- facts: nothing of such an item was written, and the server sends it again with the current
-- facts in stale_sites.
--
-- p_locks are the writers' advisory locks (one per event id and per visitor, computed by the
-- server), taken first and in order (touchtrail_take_writer_locks), so two writers never
-- deadlock; every statement after them reads a snapshot taken after they were granted (these
-- functions are volatile), so it sees what the lock's previous holder committed. Every lookup is
-- an equality on a whole primary key or an index prefix, so the generic plans asked for are
-- index probes at any size.
create or replace function touchtrail_ingest(
  p_locks bigint[],
  p_facts jsonb,
  p_items jsonb,
  p_now timestamptz,
  p_goal_limit integer,
  out outcomes text,
  out stale_sites jsonb
)
language plpgsql
set plan_cache_mode = force_generic_plan
as $$
declare
  items touchtrail_ingest_item[];
  codes text[];
  site_ids uuid[];
  any_unverified boolean;
  visit_ids uuid[];
  touched visits[];
  started uuid[];
begin
  perform touchtrail_take_writer_locks(p_locks);
  items := array(select jsonb_populate_recordset(null::touchtrail_ingest_item, p_items));

  select o.codes, o.site_ids, o.any_unverified into codes, site_ids, any_unverified
  from touchtrail_ingest_outcomes(items, p_facts) as o;
  if 's' = any(codes) then
    stale_sites := touchtrail_ingest_stale_sites(codes, site_ids);
  end if;

  select v.visit_ids, v.touched, v.started into visit_ids, touched, started
  from touchtrail_ingest_visits(items, codes, site_ids) as v;
  perform touchtrail_ingest_register_goals(items, codes, site_ids, p_now, p_goal_limit);

  perform touchtrail_record_events(
    array(
      select row(site_ids[i.ord], i.event_id, i.type, i.name, i.visitor_id, i.person_key, visit_ids[i.ord],
        to_timestamp(i.occurred_ms / 1000), to_timestamp(i.received_ms / 1000), nullif(i.url, ''),
        i.properties, i.value_minor, i.currency, i.origin)::touchtrail_event
      from unnest(items) as i
      where codes[i.ord] = 'r'
      order by i.ord),
    array(
      select row(site_ids[i.ord], l.person_key, i.visitor_id,
        to_timestamp(i.occurred_ms / 1000) + l.later)::touchtrail_identity_link
      from unnest(items) as i
      cross join lateral (values (i.person_key, interval '0'), (i.email_key, interval '1 millisecond'))
        as l(person_key, later)
      where codes[i.ord] = 'r' and i.visitor_id is not null and l.person_key is not null
      order by i.ord, l.later),
    p_now);

  perform touchtrail_ingest_visit_rollups(items, codes, visit_ids, touched, started);
  perform touchtrail_ingest_outbox(items, site_ids, touched, started, p_now);

  -- The first accepted event verifies its site (duplicates count: the snippet is installed).
  if any_unverified then
    update sites set verified_at = p_now
    where id = any(array(select site_ids[i.ord] from unnest(items) as i where codes[i.ord] in ('r', 'd')))
      and verified_at is null;
  end if;

  outcomes := array_to_string(codes, '');
end
$$;
