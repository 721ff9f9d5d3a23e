-- Hits per site, day, operator and path: the crawler report's top paths and pages fetched per
-- operator read this instead of every raw hit of the window. Written with the hits, spoofed
-- ones left out. `path_key` identifies the path (a hash, because a path of up to 2,048
-- characters can be longer than an index entry may be).
create table daily_crawler_paths (
  site_id uuid not null,
  day date not null,
  operator text not null,
  path_key uuid not null,
  path text not null,
  hits integer not null,
  primary key (site_id, day, operator, path_key)
);

insert into daily_crawler_paths (site_id, day, operator, path_key, path, hits)
select site_id, (occurred_at at time zone 'UTC')::date, operator, md5(path)::uuid, path, count(*)
from crawler_hits
where verified is not false
group by 1, 2, 3, 4, 5;
