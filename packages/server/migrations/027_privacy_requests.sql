-- Privacy requests (issue 25, DESIGN.md §12): a data subject's access or erasure request for
-- one site, worked by a leased background job. The subject is kept only as a keyed hash
-- (privacy/subject.ts), never in clear; the row stays as the audit trail of who asked, when, and
-- what matched.
create table privacy_requests (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  site_id uuid not null references sites (id),
  type text not null check (type in ('access', 'erasure')),
  subject_kind text not null
    check (subject_kind in ('visitor_id', 'user_id', 'email', 'handle', 'customer_id')),
  subject_hash text not null,
  status text not null default 'pending' check (status in ('pending', 'running', 'completed', 'failed')),
  requested_by_user uuid references users (id) on delete set null,
  -- The key that asked, if one did; kept as an id only, since keys are deleted with their sites.
  requested_by_key uuid,
  matched jsonb,
  step text,
  locked_by text,
  locked_until timestamptz,
  attempts integer not null default 0,
  last_error text,
  created_at timestamptz not null,
  completed_at timestamptz,
  export_expires_at timestamptz
);
create index privacy_requests_account_idx on privacy_requests (account_id, created_at desc, id desc);
create index privacy_requests_open_idx on privacy_requests (created_at) where status in ('pending', 'running');
create index privacy_requests_site_idx on privacy_requests (site_id);

-- Who a request is about, resolved once when its job starts, so an erasure that already
-- deleted the rows it was found through still knows whom it is erasing after a crash. Erasure
-- deletes these rows when it completes; an access request keeps them while its export lasts.
create table privacy_request_scope (
  request_id uuid not null references privacy_requests (id) on delete cascade,
  kind text not null check (kind in ('visitor', 'person_key', 'customer', 'day')),
  value text not null,
  primary key (request_id, kind, value)
);
