-- Payment-processor connections (issue 24, DESIGN.md §11). A connection receives one
-- processor's signed webhooks for one site; its signing secret is sealed like webhook secrets.
-- At most one connection per processor and site: the processor's payments then come only
-- through it (POST /v1/server/payments with that provider answers 409).
create table processor_connections (
  id uuid primary key,
  site_id uuid not null references sites (id),
  provider text not null,
  name text,
  secret_sealed text not null,
  created_by uuid,
  created_at timestamptz not null,
  last_event_at timestamptz,
  last_error text,
  last_error_at timestamptz,
  events_received integer not null default 0
);
create unique index processor_connections_provider_idx on processor_connections (site_id, provider);

-- Processor event ids already applied, per site and processor (not per connection, so a
-- replay after a reconnect still counts once). A refund a processor describes on its own
-- (Paddle's adjustments) is held here too, as `refund:` and its id.
create table processor_events (
  site_id uuid not null references sites (id),
  provider text not null,
  event_id text not null,
  received_at timestamptz not null,
  primary key (site_id, provider, event_id)
);
create index processor_events_received_idx on processor_events (received_at);

-- Another id a processor uses for a payment it first described under its transaction id
-- (Stripe's invoices name no PaymentIntent from API version 2025-03-31 on, and refunds name only
-- the PaymentIntent): a refund under the alias finds the payment.
create table processor_payment_aliases (
  site_id uuid not null references sites (id),
  provider text not null,
  alias text not null,
  transaction_id text not null,
  primary key (site_id, provider, alias)
);
