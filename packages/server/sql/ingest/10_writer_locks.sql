-- The ingest writers' advisory locks (one per event id and per visitor; db/advisory-locks.ts
-- makes the ids), taken in ascending order, so two transactions that take some of the same never
-- deadlock. The ingest (touchtrail_ingest) and an erasure deleting visits
-- (privacy/erasure-steps.ts) both take them here. Volatile, so statements after it read a
-- snapshot taken once they are granted.
create or replace function touchtrail_take_writer_locks(p_locks bigint[]) returns void
language plpgsql as $$
begin
  perform count(pg_advisory_xact_lock(k)) from (select unnest(p_locks) as k order by 1) as ordered;
end
$$;
