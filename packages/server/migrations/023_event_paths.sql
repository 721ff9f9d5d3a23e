-- The path of each event's URL, kept beside it, so that page reports and funnels read a short
-- column instead of taking the path of every pageview of their range (three to four times the
-- cost of reading the rows, measured on 3M pageviews). A stored generated column: every writer
-- (ingest, payments, tests, the benchmark's seed) gets it without knowing, and adding it fills
-- the rows already stored.
--
-- touchtrail_url_path is the one rule for "the page of a URL" (DESIGN.md §7): the path up to
-- the query or fragment, '/' when the URL has none, null when no URL was stored. An http(s) URL
-- (all that ingest stores, bar capitals) takes string functions; anything else a regular
-- expression. A single expression without FROM, so queries that call it (the entry and exit
-- pages of visits) have it inlined.
create or replace function touchtrail_url_path(url text) returns text
language sql immutable parallel safe
as $$
  select case
    when url is null or url = '' then null
    when url like 'https://%' or url like 'http://%' then coalesce(
      substr(
        split_part(split_part(substr(url, strpos(url, '://') + 3), '?', 1), '#', 1),
        nullif(strpos(split_part(split_part(substr(url, strpos(url, '://') + 3), '?', 1), '#', 1), '/'), 0)
      ),
      '/')
    else coalesce(nullif(substring(url from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*([^?#]*)'), ''), '/')
  end
$$;

alter table events add column path text generated always as (touchtrail_url_path(url)) stored;
