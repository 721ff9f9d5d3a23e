-- The visitor reports find a signed-in person's conversion events that carry only a person key
-- (server events without a visitor id); without this they would scan the site's whole window.
create index events_person_idx on events (site_id, person_key, occurred_at desc)
  where type = 'event' and person_key is not null;
