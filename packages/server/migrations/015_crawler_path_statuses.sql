-- The crawler report counted every path a crawler asked for as a page fetched, 404s included.
-- `non_2xx_hits` is the part of `hits` the site answered with a status outside 200-299
-- (redirects, not-found, errors); a hit sent without a status counts as answered. Filled from
-- the raw hits still kept (90 days); older days keep 0, as they were counted before.
alter table daily_crawler_paths add column non_2xx_hits integer not null default 0;

update daily_crawler_paths p
set non_2xx_hits = h.non_2xx_hits
from (
  select site_id, (occurred_at at time zone 'UTC')::date as day, operator, md5(path)::uuid as path_key,
         count(*)::integer as non_2xx_hits
  from crawler_hits
  where verified is not false and status is not null and (status < 200 or status > 299)
  group by 1, 2, 3, 4
) h
where p.site_id = h.site_id and p.day = h.day and p.operator = h.operator and p.path_key = h.path_key;
