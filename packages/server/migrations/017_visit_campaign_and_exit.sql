-- What the traffic reports group visits by (issue 20): every campaign tag of the entry URL and
-- the page a visit ended on. Before, only utm_campaign was kept and the exit page had to be
-- found among the visit's pageviews.
alter table visits add column utm_source text not null default '';
alter table visits add column utm_medium text not null default '';
alter table visits add column utm_content text not null default '';
alter table visits add column utm_term text not null default '';
alter table visits add column exit_url text not null default '';

-- Visits recorded before: the tags read back from the entry URL as ingest reads them (lower
-- case source and medium, 200 characters), without percent-decoding, which SQL cannot do
-- reliably; the exit URL from the visit's latest pageview, else its entry URL.
update visits set
  utm_source = left(lower(coalesce(substring(entry_url from '[?&]utm_source=([^&#]*)'), '')), 200),
  utm_medium = left(lower(coalesce(substring(entry_url from '[?&]utm_medium=([^&#]*)'), '')), 200),
  utm_content = left(coalesce(substring(entry_url from '[?&]utm_content=([^&#]*)'), ''), 200),
  utm_term = left(coalesce(substring(entry_url from '[?&]utm_term=([^&#]*)'), ''), 200),
  exit_url = entry_url
where entry_url like '%?%' or exit_url = '';

update visits v set exit_url = last_page.url
from (
  select distinct on (site_id, visit_id) site_id, visit_id, url
  from events
  where type = 'pageview' and visit_id is not null and url is not null
  order by site_id, visit_id, occurred_at desc, event_id desc
) last_page
where v.site_id = last_page.site_id and v.id = last_page.visit_id;

-- The events of one visit in order: the session trail, the exit page, funnels.
create index events_visit_idx on events (site_id, visit_id, occurred_at) where visit_id is not null;
-- Pageviews by time: page breakdowns, realtime and funnels (the time index above is for
-- custom events only).
create index events_pageviews_time_idx on events (site_id, occurred_at) where type = 'pageview';
