-- Invitations and password resets (issue 21, DESIGN.md §8). Both are one-time links whose
-- token is stored only as its SHA-256; the link itself is shown or emailed once.

-- A person invited by email to join an account with a role, until accepted, revoked or expired
-- (7 days). Re-inviting an email revokes its pending invitation, so an account has at most one
-- pending invitation per email (the partial unique index).
create table invitations (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  email text not null check (email = lower(email)),
  role text not null check (role in ('admin', 'member')),
  token_hash text not null unique,
  invited_by uuid references users (id) on delete set null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  accepted_at timestamptz,
  revoked_at timestamptz
);
create unique index invitations_pending_email_idx on invitations (account_id, email)
  where accepted_at is null and revoked_at is null;

-- A password reset link (1 hour). Using one marks every open link of the person used.
create table password_resets (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index password_resets_user_idx on password_resets (user_id);
