-- Site export (site-export/) reads a site's events and payments in time order in keyset pages.
-- The events' time indexes cover only pageviews or only custom events (partial), and payments
-- had no time index at all, so each page would read and sort every row of the site's window.
create index events_site_occurred_idx on events (site_id, occurred_at, event_id);
create index payments_site_paid_idx on payments (site_id, paid_at, id);
