-- The ingest batch in one call. A batch used to take four round trips (locks, a read, the
-- writes, commit) with the visits built in Node between them; each round trip left the
-- database waiting on the server's event loop and the server waiting on the database. Now the
-- server sends the batch's items, already parsed and enriched, to touchtrail_ingest(), which
-- takes the locks, builds the visits and writes everything in the transaction of that one
-- statement. DESIGN.md §4 has the rules the visit building follows; ingest/sessionize.ts makes
-- the source key it compares.

-- A visitor's latest visit is the one started last, ties broken by id. With the id in the
-- index that is its first entry, whatever plan the batch's cached statement holds; without it,
-- a plan made on small tables sorted all the visitor's visits on every lookup.
drop index visits_visitor_idx;
create index visits_visitor_idx on visits (site_id, visitor_id, started_at desc, id desc);

-- One item of a batch as the server sends it (ingest/ingest.store.ts builds them). Times are
-- epoch milliseconds. The source fields are the item's classification, made with the site
-- facts the server knew (domain, cookie apex, currency; see touchtrail_ingest).
create type touchtrail_ingest_item as (
  ord integer,
  snippet_key text,
  -- A server event's key: its account and, when restricted, its one site.
  account_id uuid,
  site_ref uuid,
  origin text,
  type text,
  event_id text,
  visitor_id text,
  person_key text,
  -- A server event's email key when its user id is the person (linked a millisecond later).
  email_key text,
  name text,
  is_goal boolean,
  url text,
  properties jsonb,
  value_minor bigint,
  currency text,
  engaged_seconds integer,
  occurred_ms float8,
  received_ms float8,
  source_kind text,
  session_ai_source text,
  source_name text,
  source_key text,
  campaign text,
  ref text,
  device_type text,
  os text,
  browser text,
  country_code text,
  city text
);

-- The goal registry's advisory lock for a site: the first 64 bits of the SHA-256 of
-- 'goals|<site id>', the id db/advisory-locks.ts derives for the same key.
create function touchtrail_goals_lock_id(p_site uuid) returns bigint
language sql immutable strict as $$
  select ('x' || encode(substring(sha256(convert_to('goals|' || p_site::text, 'UTF8')) from 1 for 8), 'hex'))::bit(64)::bigint
$$;

-- Events and identity links, written by the ingest batch and by payments alike. Events whose
-- ids are stored already are skipped, and only the events actually inserted are added to the
-- goal rollups and get attribution jobs, so a retried or concurrently duplicated event counts
-- exactly once. Rollup rows are written in key order, so two writers take their row locks in
-- the same order.
create function touchtrail_record_events(p_events events[], p_links identity_links[], p_now timestamptz)
returns void
language plpgsql
set plan_cache_mode = force_generic_plan
as $$
begin
  with inserted as (
    insert into events select * from unnest(p_events)
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
  property_values as (
    insert into daily_goal_properties (site_id, name, day, pair, key, value, events)
    select c.site_id, c.name, c.day, md5(length(p.key)::text || ':' || p.key || p.value)::uuid,
      p.key, p.value, count(*)
    from conversions c
    cross join lateral jsonb_each_text(c.properties) as p(key, value)
    where jsonb_typeof(c.properties) = 'object' and p.value is not null
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4
    on conflict (site_id, name, day, pair) do update
      set events = daily_goal_properties.events + excluded.events
  )
  insert into attribution_jobs (site_id, event_id, run_after, created_at)
  select site_id, event_id, p_now, p_now from conversions order by site_id, event_id
  on conflict (site_id, event_id) do nothing;

  if cardinality(p_links) > 0 then
    insert into identity_links select * from unnest(p_links)
    on conflict (site_id, person_key, visitor_id) do nothing;
  end if;
end
$$;

-- One ingest batch, in the transaction of the statement that calls it. Returns a code per
-- item, in order: r recorded, d duplicate, u unknown site (or one the key does not reach),
-- x site scheduled for deletion, s stale: the site facts the server enriched the item with
-- (p_facts: snippet_key, domain, cookie_apex_domain, currency) no longer hold, so nothing of
-- the item was written and the server sends it again with the facts in stale_sites.
--
-- p_locks are the writers' advisory locks (one per event id and per visitor, computed by the
-- server), taken first and in sorted order, so two writers never deadlock; every statement
-- after them reads a snapshot taken after they were granted (this function is volatile), so
-- it sees what the lock's previous holder committed. Every lookup is an equality on a whole
-- primary key or an index prefix, so the generic plans asked for are index probes at any size.
create function touchtrail_ingest(
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
  idle constant interval := interval '30 minutes';
  items touchtrail_ingest_item[];
  -- Per item, by ord: its outcome code, its site and the visit it joined.
  codes text[];
  site_ids uuid[];
  visit_ids uuid[];
  any_unverified boolean;
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
  touched visits[] := '{}';
  started uuid[] := '{}';
  seen visitors[] := '{}';
  facts_outbox outbox_events[] := '{}';
  goal record;
  unknown_names text[];
  goal_count integer;
begin
  perform count(pg_advisory_xact_lock(k)) from (select unnest(p_locks) as k order by 1) as ordered;

  items := array(select jsonb_populate_recordset(null::touchtrail_ingest_item, p_items));
  visit_ids := array_fill(null::uuid, array[cardinality(items)]);

  -- What becomes of each item. A key that is not a site's, or a server key that does not reach
  -- it, is unknown; then deletion, then stale facts; then the first of an event id is recorded
  -- unless it is stored already.
  select array_agg(coalesce(c.base, case
        when c.nth > 1 then 'd'
        when (select true from events e where e.site_id = c.site_id and e.event_id = c.event_id limit 1) then 'd'
        else 'r' end) order by c.ord),
      array_agg(c.site_id order by c.ord),
      coalesce(bool_or(c.base is null and c.unverified), false)
  into codes, site_ids, any_unverified
  from (
    select b.*, row_number() over (partition by b.site_id, b.event_id, b.base is null order by b.ord) as nth
    from (
      select i.ord, i.event_id, s.id as site_id, s.verified_at is null as unverified,
        case
          when s.id is null then 'u'
          when i.account_id is not null and (s.account_id <> i.account_id or s.id <> coalesce(i.site_ref, s.id)) then 'u'
          when s.deleted_at is not null then 'x'
          when f.snippet_key is null or f.domain is distinct from s.domain
            or f.cookie_apex_domain is distinct from s.cookie_apex_domain
            or f.currency is distinct from s.currency then 's'
        end as base
      from unnest(items) as i
      left join sites s on s.snippet_key = i.snippet_key
      left join jsonb_to_recordset(p_facts) as f(snippet_key text, domain text, cookie_apex_domain text, currency text)
        on f.snippet_key = i.snippet_key
    ) as b
  ) as c;

  if 's' = any(codes) then
    select jsonb_agg(jsonb_build_object('snippet_key', s.snippet_key, 'domain', s.domain,
        'cookie_apex_domain', s.cookie_apex_domain, 'currency', s.currency))
    into stale_sites
    from sites s
    where s.id = any(array(select site_ids[i.ord] from unnest(items) as i where codes[i.ord] = 's'));
  end if;

  -- Visitors and their visits: each visitor's items in order, from the latest visit stored for
  -- them (DESIGN.md §4). Ordered by site and visitor, which is also the key order of the rows.
  for r in
    select i.ord, i.origin, i.type, i.visitor_id, i.occurred_ms, i.engaged_seconds, i.source_key,
      site_ids[i.ord] as site_id,
      case when i.type <> 'identify' then
        (select v from visits v where v.site_id = site_ids[i.ord] and v.visitor_id = i.visitor_id
          order by v.started_at desc, v.id desc limit 1)
      end as latest
    from unnest(items) as i
    where codes[i.ord] = 'r' and i.visitor_id is not null
    order by site_id, i.visitor_id, i.ord
  loop
    if r.site_id is distinct from cur_site or r.visitor_id is distinct from cur_visitor then
      if dirty then touched := array_append(touched, cur); end if;
      if first_seen is not null then
        seen := array_append(seen, row(cur_site, cur_visitor, first_seen, last_seen)::visitors);
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
    -- A pageview from another external source, or a browser event with no open visit, starts
    -- a visit; any other item joins the open visit, if there is one.
    if (r.type = 'pageview' and (not has_visit or v_at - cur.last_activity_at > idle
          or (coalesce(r.source_key, '') <> '' and r.source_key <> cur.source_key)))
       or (r.type = 'event' and r.origin = 'browser' and (not has_visit or v_at - cur.last_activity_at > idle)) then
      if dirty then touched := array_append(touched, cur); end if;
      if not has_visit then
        known := exists (select 1 from visitors k where k.site_id = r.site_id and k.visitor_id = r.visitor_id);
      end if;
      item := items[r.ord];
      cur := row(r.site_id, gen_random_uuid(), r.visitor_id, v_at, v_at, coalesce(item.url, ''),
        coalesce(item.source_kind, 'unknown'), coalesce(item.session_ai_source, 'direct'),
        coalesce(item.source_name, ''), coalesce(item.source_key, ''), coalesce(item.campaign, ''),
        coalesce(item.ref, ''), coalesce(item.device_type, ''), coalesce(item.os, ''),
        coalesce(item.browser, ''), coalesce(item.country_code, ''), coalesce(item.city, ''), 0, 0,
        not has_visit and not known)::visits;
      has_visit := true;
      started := array_append(started, cur.id);
      if cur.source_kind = 'ai' then
        facts_outbox := array_append(facts_outbox, row(r.site_id, gen_random_uuid(), 'ai_session.classified',
          cur.id::text, jsonb_build_object(
            'site_id', item.snippet_key,
            'visit_id', cur.id,
            'ai_source', cur.session_ai_source,
            'source_kind', cur.source_kind,
            'source_name', cur.source_name,
            'entry_url', cur.entry_url,
            'campaign', cur.campaign,
            'country_code', cur.country_code,
            'device_type', cur.device_type,
            'is_new_visitor', cur.is_new,
            'started_at', to_char(v_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
          p_now, null)::outbox_events);
      end if;
    elsif not has_visit or v_at - cur.last_activity_at > idle then
      continue;
    end if;
    if r.type = 'pageview' then
      cur.pageviews := cur.pageviews + 1;
    elsif r.type = 'engagement' then
      cur.engaged_seconds := cur.engaged_seconds + r.engaged_seconds;
    end if;
    -- A server event joins the visit without making it active. Two processes may commit a
    -- visitor's items a moment out of order; the visit's activity never goes back.
    if r.origin = 'browser' then cur.last_activity_at := greatest(cur.last_activity_at, v_at); end if;
    dirty := true;
    visit_ids[r.ord] := cur.id;
  end loop;
  if dirty then touched := array_append(touched, cur); end if;
  if first_seen is not null then
    seen := array_append(seen, row(cur_site, cur_visitor, first_seen, last_seen)::visitors);
  end if;

  -- Goals: an event name registers the first time it is recorded, while the site holds fewer
  -- than p_goal_limit goals. Under the registry's lock, as the goals API takes it.
  for goal in
    select n.site_id, array_agg(n.name order by n.first) as names
    from (
      select site_ids[i.ord] as site_id, i.name, min(i.ord) as first
      from unnest(items) as i
      where codes[i.ord] = 'r' and i.type = 'event' and i.is_goal
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

  perform touchtrail_record_events(
    array(
      select row(site_ids[i.ord], i.event_id, i.type, i.name, i.visitor_id, i.person_key, visit_ids[i.ord],
        to_timestamp(i.occurred_ms / 1000), to_timestamp(i.received_ms / 1000), nullif(i.url, ''),
        i.properties, i.value_minor, i.currency, i.origin)::events
      from unnest(items) as i
      where codes[i.ord] = 'r'
      order by i.ord),
    array(
      select row(site_ids[i.ord], l.person_key, i.visitor_id, to_timestamp(i.occurred_ms / 1000) + l.later)::identity_links
      from unnest(items) as i
      cross join lateral (values (i.person_key, interval '0'), (i.email_key, interval '1 millisecond'))
        as l(person_key, later)
      where codes[i.ord] = 'r' and i.visitor_id is not null and l.person_key is not null
      order by i.ord, l.later),
    p_now);

  if cardinality(touched) > 0 then
    insert into visits select * from unnest(touched)
    on conflict (site_id, id) do update set last_activity_at = excluded.last_activity_at,
      pageviews = excluded.pageviews, engaged_seconds = excluded.engaged_seconds;
  end if;

  -- Shared rows in key order (see touchtrail_record_events); the loop made `seen` in that order.
  if cardinality(seen) > 0 then
    insert into visitors select * from unnest(seen)
    on conflict (site_id, visitor_id) do update
      set last_seen = greatest(visitors.last_seen, excluded.last_seen),
        first_seen = least(visitors.first_seen, excluded.first_seen);
  end if;

  -- Daily rollups: a visit counts on the day it started, a pageview on its own day, both under
  -- the source of their visit.
  if cardinality(touched) > 0 then
    insert into daily_visits (site_id, day, source_kind, session_ai_source, visits, pageviews)
    select b.site_id, b.day, b.source_kind, b.session_ai_source, sum(b.visits), sum(b.pageviews)
    from (
      select v.site_id, (v.started_at at time zone 'UTC')::date as day, v.source_kind, v.session_ai_source,
        1 as visits, 0 as pageviews
      from unnest(touched) as v where v.id = any(started)
      union all
      select v.site_id, (to_timestamp(i.occurred_ms / 1000) at time zone 'UTC')::date, v.source_kind,
        v.session_ai_source, 0, 1
      from unnest(items) as i
      join unnest(touched) as v on v.id = visit_ids[i.ord]
      where i.type = 'pageview' and codes[i.ord] = 'r'
    ) as b
    group by 1, 2, 3, 4 order by 1, 2, 3, 4
    on conflict (site_id, day, source_kind, session_ai_source) do update
      set visits = daily_visits.visits + excluded.visits,
        pageviews = daily_visits.pageviews + excluded.pageviews;
  end if;

  if cardinality(facts_outbox) > 0 then
    insert into outbox_events select * from unnest(facts_outbox)
    on conflict (site_id, type, dedupe_key) do nothing;
  end if;

  -- The first accepted event verifies its site (duplicates count: the snippet is installed).
  if any_unverified then
    update sites set verified_at = p_now
    where id = any(array(select site_ids[i.ord] from unnest(items) as i where codes[i.ord] in ('r', 'd')))
      and verified_at is null;
  end if;

  outcomes := array_to_string(codes, '');
end
$$;
