-- What becomes of each item of a batch, by ord: u when its key is not a site's, or a server
-- key does not reach that site; x when the site is scheduled for deletion; s when the site
-- facts the server enriched it with (p_facts: snippet_key, domain, cookie_apex_domain,
-- currency) no longer hold; then d for an event id seen earlier in the batch or stored
-- already, and r (recorded) for the rest. Also each item's site, and whether a recorded item
-- belongs to a site not yet verified.
create or replace function touchtrail_ingest_outcomes(
  p_items touchtrail_ingest_item[],
  p_facts jsonb,
  out codes text[],
  out site_ids uuid[],
  out any_unverified boolean
)
language plpgsql
set plan_cache_mode = force_generic_plan
as $$
begin
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
      from unnest(p_items) as i
      left join sites s on s.snippet_key = i.snippet_key
      left join jsonb_to_recordset(p_facts) as f(snippet_key text, domain text, cookie_apex_domain text, currency text)
        on f.snippet_key = i.snippet_key
    ) as b
  ) as c;
end
$$;

-- The current facts of the sites whose items came back stale (code s), for the server to
-- enrich them again.
create or replace function touchtrail_ingest_stale_sites(p_codes text[], p_site_ids uuid[])
returns jsonb
language sql stable
as $$
  select jsonb_agg(jsonb_build_object('snippet_key', s.snippet_key, 'domain', s.domain,
      'cookie_apex_domain', s.cookie_apex_domain, 'currency', s.currency))
  from sites s
  where s.id = any(array(
    select p_site_ids[n] from generate_subscripts(p_codes, 1) as n where p_codes[n] = 's'))
$$;
