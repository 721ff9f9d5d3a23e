-- How often each property value came with a goal's events, per day: the goals properties
-- report reads this instead of unpacking every event's properties. Ingest and payments add to
-- it in the same statement that inserts the events, counting only events actually inserted, so
-- a retried event counts once. `pair` identifies the key and value (a hash, because values can
-- be longer than an index entry may be).
create table daily_goal_properties (
  site_id uuid not null,
  name text not null,
  day date not null,
  pair uuid not null,
  key text not null,
  value text not null,
  events integer not null,
  primary key (site_id, name, day, pair)
);

insert into daily_goal_properties (site_id, name, day, pair, key, value, events)
select e.site_id, e.name, (e.occurred_at at time zone 'UTC')::date,
  md5(length(p.key)::text || ':' || p.key || p.value)::uuid, p.key, p.value, count(*)
from events e
cross join lateral jsonb_each_text(e.properties) as p(key, value)
where e.type = 'event' and jsonb_typeof(e.properties) = 'object' and p.value is not null
group by 1, 2, 3, 4, 5, 6;
