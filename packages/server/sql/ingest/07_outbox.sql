-- The ai_session.classified fact of each visit started from an AI assistant, queued for the
-- webhook dispatcher. Its payload is the `data` of aiSessionClassifiedEvent in
-- src/webhooks/webhook-events.docs.ts; ingest.outbox.test.ts holds the two to the same keys.
create or replace function touchtrail_ingest_outbox(
  p_items touchtrail_ingest_item[],
  p_site_ids uuid[],
  p_touched visits[],
  p_started uuid[],
  p_now timestamptz
)
returns void
language plpgsql
set plan_cache_mode = force_generic_plan
as $$
begin
  if cardinality(p_started) = 0 then return; end if;
  insert into outbox_events (site_id, id, type, dedupe_key, payload, created_at)
  select v.site_id, gen_random_uuid(), 'ai_session.classified', v.id::text,
    jsonb_build_object(
      'site_id', (select i.snippet_key from unnest(p_items) as i where p_site_ids[i.ord] = v.site_id limit 1),
      'visit_id', v.id,
      'ai_source', v.session_ai_source,
      'source_kind', v.source_kind,
      'source_name', v.source_name,
      'entry_url', v.entry_url,
      'campaign', v.campaign,
      'country_code', v.country_code,
      'device_type', v.device_type,
      'is_new_visitor', v.is_new,
      'started_at', to_char(v.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
    p_now
  from unnest(p_touched) as v
  where v.source_kind = 'ai' and v.id = any(p_started)
  on conflict (site_id, type, dedupe_key) do nothing;
end
$$;
