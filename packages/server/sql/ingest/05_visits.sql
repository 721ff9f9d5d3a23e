-- The visit rules (DESIGN.md §4), applied to a batch's recorded items. Each visitor's items are
-- taken in order, starting from the latest visit stored for them:
--   * a visit ends after 30 minutes without activity;
--   * a pageview that arrives from another external source (another source key, made by
--     ingest/sessionize.ts; empty for direct arrivals and internal navigation) starts a visit;
--   * a browser pageview or event with no open visit starts one; a server event or an
--     engagement joins the open visit, or none;
--   * only browser items move the visit's activity, and it never goes back (two processes may
--     commit a visitor's items a moment out of order);
--   * identify never touches visits.
-- Writes the visits and the visitors (first and last seen), and answers for each item (by ord)
-- the visit it joined, with the visits touched and the ids of those started, for the rollups
-- and the outbox.
create or replace function touchtrail_ingest_visits(
  p_items touchtrail_ingest_item[],
  p_codes text[],
  p_site_ids uuid[],
  out visit_ids uuid[],
  out touched visits[],
  out started uuid[]
)
language plpgsql
set plan_cache_mode = force_generic_plan
as $$
declare
  idle constant interval := touchtrail_visit_idle();
  r record;
  item touchtrail_ingest_item;
  v_at timestamptz;
  cur_site uuid;
  cur_visitor text;
  -- The visitor's latest visit as it stands after their items so far.
  cur visits;
  has_visit boolean := false;
  dirty boolean := false;
  known boolean;
  first_seen timestamptz;
  last_seen timestamptz;
  seen_sites uuid[] := '{}';
  seen_visitors text[] := '{}';
  seen_first timestamptz[] := '{}';
  seen_last timestamptz[] := '{}';
begin
  visit_ids := array_fill(null::uuid, array[cardinality(p_items)]);
  touched := '{}';
  started := '{}';
  -- Ordered by site and visitor, which is also the key order of the rows written below.
  for r in
    select i.ord, i.origin, i.type, i.visitor_id, i.occurred_ms, i.engaged_seconds, i.source_key, i.url,
      p_site_ids[i.ord] as site_id,
      case when i.type <> 'identify' then
        (select v from visits v where v.site_id = p_site_ids[i.ord] and v.visitor_id = i.visitor_id
          order by v.started_at desc, v.id desc limit 1)
      end as latest
    from unnest(p_items) as i
    where p_codes[i.ord] = 'r' and i.visitor_id is not null
    order by site_id, i.visitor_id, i.ord
  loop
    if r.site_id is distinct from cur_site or r.visitor_id is distinct from cur_visitor then
      if dirty then touched := array_append(touched, cur); end if;
      if first_seen is not null then
        seen_sites := array_append(seen_sites, cur_site);
        seen_visitors := array_append(seen_visitors, cur_visitor);
        seen_first := array_append(seen_first, first_seen);
        seen_last := array_append(seen_last, last_seen);
      end if;
      cur_site := r.site_id;
      cur_visitor := r.visitor_id;
      cur := r.latest;
      has_visit := cur.id is not null;
      dirty := false;
      first_seen := null;
      last_seen := null;
    end if;
    v_at := to_timestamp(r.occurred_ms / 1000);
    if r.origin = 'browser' then
      first_seen := least(first_seen, v_at);
      last_seen := greatest(last_seen, v_at);
    end if;
    if r.type = 'identify' then continue; end if;
    if (r.type = 'pageview' and (not has_visit or v_at - cur.last_activity_at > idle
          or (coalesce(r.source_key, '') <> '' and r.source_key <> cur.source_key)))
       or (r.type = 'event' and r.origin = 'browser' and (not has_visit or v_at - cur.last_activity_at > idle)) then
      if dirty then touched := array_append(touched, cur); end if;
      if not has_visit then
        known := exists (select 1 from visitors k where k.site_id = r.site_id and k.visitor_id = r.visitor_id);
      end if;
      item := p_items[r.ord];
      cur := null;
      cur.site_id := r.site_id;
      cur.id := gen_random_uuid();
      cur.visitor_id := r.visitor_id;
      cur.started_at := v_at;
      cur.last_activity_at := v_at;
      cur.entry_url := coalesce(item.url, '');
      cur.exit_url := '';
      cur.source_kind := coalesce(item.source_kind, 'unknown');
      cur.session_ai_source := coalesce(item.session_ai_source, 'direct');
      cur.source_name := coalesce(item.source_name, '');
      cur.source_key := coalesce(item.source_key, '');
      cur.campaign := coalesce(item.campaign, '');
      cur.utm_source := coalesce(item.utm_source, '');
      cur.utm_medium := coalesce(item.utm_medium, '');
      cur.utm_content := coalesce(item.utm_content, '');
      cur.utm_term := coalesce(item.utm_term, '');
      cur.ref := coalesce(item.ref, '');
      cur.device_type := coalesce(item.device_type, '');
      cur.os := coalesce(item.os, '');
      cur.browser := coalesce(item.browser, '');
      cur.country_code := coalesce(item.country_code, '');
      cur.city := coalesce(item.city, '');
      cur.pageviews := 0;
      cur.engaged_seconds := 0;
      cur.is_new := not has_visit and not known;
      has_visit := true;
      started := array_append(started, cur.id);
    elsif not has_visit or v_at - cur.last_activity_at > idle then
      continue;
    end if;
    if r.type = 'pageview' then
      cur.pageviews := cur.pageviews + 1;
      -- The exit page is the latest pageview's, whatever order the batches arrive in.
      if v_at >= cur.last_activity_at or cur.exit_url = '' then cur.exit_url := coalesce(r.url, ''); end if;
    elsif r.type = 'engagement' then
      cur.engaged_seconds := cur.engaged_seconds + r.engaged_seconds;
    end if;
    if r.origin = 'browser' then cur.last_activity_at := greatest(cur.last_activity_at, v_at); end if;
    dirty := true;
    visit_ids[r.ord] := cur.id;
  end loop;
  if dirty then touched := array_append(touched, cur); end if;
  if first_seen is not null then
    seen_sites := array_append(seen_sites, cur_site);
    seen_visitors := array_append(seen_visitors, cur_visitor);
    seen_first := array_append(seen_first, first_seen);
    seen_last := array_append(seen_last, last_seen);
  end if;

  if cardinality(touched) > 0 then
    insert into visits (site_id, id, visitor_id, started_at, last_activity_at, entry_url,
      source_kind, session_ai_source, source_name, source_key, campaign, utm_source, utm_medium,
      utm_content, utm_term, ref, device_type, os, browser, country_code, city, pageviews,
      engaged_seconds, is_new, exit_url)
    select v.site_id, v.id, v.visitor_id, v.started_at, v.last_activity_at, v.entry_url,
      v.source_kind, v.session_ai_source, v.source_name, v.source_key, v.campaign, v.utm_source,
      v.utm_medium, v.utm_content, v.utm_term, v.ref, v.device_type, v.os, v.browser,
      v.country_code, v.city, v.pageviews, v.engaged_seconds, v.is_new, v.exit_url
    from unnest(touched) as v
    on conflict (site_id, id) do update set last_activity_at = excluded.last_activity_at,
      pageviews = excluded.pageviews, engaged_seconds = excluded.engaged_seconds,
      exit_url = excluded.exit_url;
  end if;

  -- Shared rows in key order (see touchtrail_record_events); the loop made them in that order.
  if cardinality(seen_sites) > 0 then
    insert into visitors (site_id, visitor_id, first_seen, last_seen)
    select * from unnest(seen_sites, seen_visitors, seen_first, seen_last)
    on conflict (site_id, visitor_id) do update
      set last_seen = greatest(visitors.last_seen, excluded.last_seen),
        first_seen = least(visitors.first_seen, excluded.first_seen);
  end if;
end
$$;
