-- Accounts, people, dashboard sessions, API keys, and the sites they reach.
-- Account-level tables are small reference tables; per-site event tables (later migrations)
-- put site_id first in their primary key so the schema can be distributed by site.

create table server_settings (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

create table accounts (
  id uuid primary key,
  name text not null,
  plan text not null default 'self_hosted',
  site_limit integer not null check (site_limit > 0),
  region text not null default 'us' check (region in ('us', 'eu')),
  pending_deletion_at timestamptz,
  created_at timestamptz not null
);

create table users (
  id uuid primary key,
  email text not null unique check (email = lower(email)),
  password_hash text not null,
  created_at timestamptz not null
);

-- A person belongs to one account for now (unique user_id); the table keeps the door open
-- for people in several accounts without changing the shape of the key.
create table memberships (
  account_id uuid not null references accounts (id) on delete cascade,
  user_id uuid not null unique references users (id) on delete cascade,
  role text not null check (role in ('admin', 'member')),
  created_at timestamptz not null,
  primary key (account_id, user_id)
);

create table dashboard_sessions (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  expires_at timestamptz not null
);
create index dashboard_sessions_user_idx on dashboard_sessions (user_id);

create table sites (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  snippet_key text not null unique,
  domain text not null,
  name text,
  region text not null check (region in ('us', 'eu')),
  attribution_model text not null default 'last_touch'
    check (attribution_model in ('first_touch', 'last_touch', 'linear', 'time_decay')),
  cookie_apex_domain text,
  currency text not null default 'USD',
  currency_chosen boolean not null default false,
  created_at timestamptz not null,
  verified_at timestamptz,
  deleted_at timestamptz,
  deletion_effective_at timestamptz,
  erasure_started_at timestamptz
);
-- One active site per domain per account; a domain in its deletion window does not block it.
create unique index sites_active_domain_idx on sites (account_id, domain) where deleted_at is null;
create index sites_account_idx on sites (account_id, created_at desc);

create table api_keys (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  created_by uuid references users (id) on delete set null,
  name text not null,
  display_prefix text not null,
  key_hash text not null unique,
  scopes text[] not null,
  site_id uuid references sites (id) on delete cascade,
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz not null
);
create index api_keys_account_idx on api_keys (account_id, created_at desc);
