-- The goal registry's advisory lock for a site: the first 64 bits of the SHA-256 of
-- 'goals|<site id>', the id goalSetLockId in db/advisory-locks.ts derives for the same key. The goals API
-- (goals/goals.store.ts) and touchtrail_ingest_register_goals both take it.
create or replace function touchtrail_goals_lock_id(p_site uuid) returns bigint
language sql immutable strict as $$
  select ('x' || encode(substring(sha256(convert_to('goals|' || p_site::text, 'UTF8')) from 1 for 8), 'hex'))::bit(64)::bigint
$$;
