-- AI crawler tracking: bot tokens that may only report crawler hits, the hits themselves
-- (user agent classified at ingest; IP addresses are never stored), and a daily rollup.

create table bot_tokens (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  site_id uuid not null references sites (id) on delete cascade,
  created_by uuid references users (id) on delete set null,
  name text not null,
  display_prefix text not null,
  token_hash text not null unique,
  created_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index bot_tokens_site_idx on bot_tokens (site_id) where revoked_at is null;
create index bot_tokens_account_idx on bot_tokens (account_id, created_at desc);

create table crawler_hits (
  site_id uuid not null,
  id uuid not null,
  crawler text not null,
  operator text not null,
  purpose text not null,
  path text not null,
  status integer,
  occurred_at timestamptz not null,
  received_at timestamptz not null,
  primary key (site_id, id)
);
create index crawler_hits_time_idx on crawler_hits (site_id, occurred_at);

create table daily_crawler_hits (
  site_id uuid not null,
  day date not null,
  crawler text not null,
  operator text not null,
  purpose text not null,
  hits integer not null,
  primary key (site_id, day, crawler)
);
