-- OpenID Connect sign-in (issue 21, DESIGN.md §8). A person may now exist without a password:
-- one who joined through the provider. Password sign-in treats them as a wrong password.
alter table users alter column password_hash drop not null;

-- Who a person is at the provider: the ID token's (iss, sub), stored at their first sign-in
-- (matched then by verified email), so a later email change at the provider still finds them.
create table oidc_links (
  issuer text not null,
  subject text not null,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null,
  primary key (issuer, subject)
);
create index oidc_links_user_idx on oidc_links (user_id);

-- A session begun through the provider, with its ID token sealed (AES-256-GCM under SECRET_KEY)
-- for the provider's logout (`id_token_hint`). Goes with the session.
create table oidc_sessions (
  session_token_hash text primary key references dashboard_sessions (token_hash) on delete cascade,
  id_token_sealed text not null,
  created_at timestamptz not null
);

-- The SHA-256 of each `state` a callback has used, kept until its start cookie would have
-- expired, so a replayed callback (same cookie, same state) is refused.
create table oidc_used_states (
  state_hash text primary key,
  expires_at timestamptz not null
);
create index oidc_used_states_expires_idx on oidc_used_states (expires_at);
