-- Second factor and visible sessions (issue 21, DESIGN.md §8).

-- A session gets a public id, so a person can list their sessions and end one, and the
-- browser's user agent (cut to 200 characters) to tell them apart. Existing rows get an id here.
alter table dashboard_sessions add column id uuid not null default gen_random_uuid();
alter table dashboard_sessions add column user_agent text;
create unique index dashboard_sessions_id_idx on dashboard_sessions (id);

-- One TOTP secret per person, sealed with AES-256-GCM under SECRET_KEY (as webhook signing
-- secrets are). Pending until confirmed with a code; last_used_step is the last accepted
-- 30-second step, so a code is never accepted twice.
create table totp_factors (
  user_id uuid primary key references users (id) on delete cascade,
  secret_sealed text not null,
  created_at timestamptz not null,
  confirmed_at timestamptz,
  last_used_step integer
);

-- Ten one-time recovery codes per confirmed factor, stored as SHA-256 only.
create table totp_recovery_codes (
  user_id uuid not null references users (id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  primary key (user_id, code_hash)
);

-- A password accepted for a person with a second factor, waiting for the code (5 minutes).
-- The cookie holds a random token; only its SHA-256 is stored.
create table pending_sign_ins (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  user_agent text,
  expires_at timestamptz not null
);
create index pending_sign_ins_user_idx on pending_sign_ins (user_id);
