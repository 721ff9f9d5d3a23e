-- Site erasure: one job row per site whose deletion window ran out. The row has no foreign key
-- to sites because it outlives the site row: after erasure, a restore still answers
-- deletion_in_progress instead of pretending the site never existed.
create table site_erasures (
  site_id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  snippet_key text not null unique,
  status text not null check (status in ('running', 'done')),
  -- The table being erased (null before the first; 'sites' for the site row itself), so a
  -- resumed job continues there instead of walking every finished table again.
  step text,
  -- A worker holds the job until locked_until; a crashed worker's lease simply runs out.
  locked_by text,
  locked_until timestamptz,
  attempts integer not null default 0,
  last_error text,
  started_at timestamptz not null,
  finished_at timestamptz
);
create index site_erasures_running_idx on site_erasures (started_at) where status = 'running';

-- The worker looks for sites whose window ran out and whose erasure has not begun.
create index sites_deletion_due_idx on sites (deletion_effective_at)
  where deleted_at is not null and erasure_started_at is null;

-- Domains are stored lower-cased, which makes the (account_id, domain) index case-insensitive.
alter table sites add constraint sites_domain_lower check (domain = lower(domain));

-- Erasure deletes a site's restricted keys in batches by site_id.
create index api_keys_site_idx on api_keys (site_id) where site_id is not null;
