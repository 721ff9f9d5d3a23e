-- Outbound webhooks: endpoints per site, and one durable delivery row per (endpoint, fact)
-- moving pending -> retrying -> succeeded | failed. Facts come from outbox_events (003), which
-- gains a dispatched_at mark so the fan-out reads only what it has not handled yet.

create table webhooks (
  site_id uuid not null,
  id uuid not null,
  url text not null,
  event_types text[] not null,
  enabled boolean not null default true,
  verification_status text not null
    check (verification_status in ('verified', 'failing', 'unverified')),
  -- The signing secret, AES-256-GCM under a key derived from SECRET_KEY (signing needs the plaintext).
  secret_sealed text not null,
  -- Start of the current unbroken run of failed delivery attempts; null after any success.
  failing_since timestamptz,
  -- Test-ping budget of the current minute (a per-endpoint cap shared by every process).
  test_window_start timestamptz,
  test_count integer not null default 0,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (site_id, id),
  unique (id)
);

create table webhook_deliveries (
  site_id uuid not null,
  id uuid not null,
  webhook_id uuid not null,
  event_type text not null,
  envelope_id text not null,
  dedupe_key text not null,
  -- The body exactly as sent on every attempt (the signature covers it byte for byte).
  payload text not null,
  status text not null check (status in ('pending', 'retrying', 'succeeded', 'failed')),
  attempt_count integer not null default 0,
  response_status integer,
  last_error text,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  -- Lease of the worker sending the current attempt; a dead worker's lease simply runs out.
  locked_by uuid,
  locked_until timestamptz,
  -- Strictly increasing per endpoint (microseconds), so the listing's timestamp cursor is exact.
  created_at timestamptz not null,
  primary key (site_id, id),
  unique (webhook_id, event_type, dedupe_key),
  foreign key (site_id, webhook_id) references webhooks (site_id, id) on delete cascade
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
  where status in ('pending', 'retrying');
create index webhook_deliveries_log_idx on webhook_deliveries (webhook_id, created_at desc);
create index webhook_deliveries_created_idx on webhook_deliveries (created_at);

alter table outbox_events add column dispatched_at timestamptz;
create index outbox_events_undispatched_idx on outbox_events (created_at) where dispatched_at is null;
