-- Shared links (issue 22, DESIGN.md §9): a public, read-only link to one site's traffic reports.
-- The link's token is stored only as its SHA-256; an optional password as an scrypt hash. Opening
-- a link trades it (and its password) for a short-lived access token, also stored hashed, which
-- the shared dashboard sends with each report; revoking the link ends its access at once.
create table shared_links (
  id uuid primary key,
  site_id uuid not null references sites (id),
  account_id uuid not null,
  label text not null,
  token_hash text not null unique,
  display_prefix text not null,
  password_hash text,
  created_by uuid,
  created_at timestamptz not null,
  revoked_at timestamptz
);
create index shared_links_site_idx on shared_links (site_id, created_at);

create table shared_link_access (
  token_hash text primary key,
  link_id uuid not null references shared_links (id) on delete cascade,
  site_id uuid not null,
  expires_at timestamptz not null
);
create index shared_link_access_link_idx on shared_link_access (link_id);
create index shared_link_access_site_idx on shared_link_access (site_id);
create index shared_link_access_expires_idx on shared_link_access (expires_at);
