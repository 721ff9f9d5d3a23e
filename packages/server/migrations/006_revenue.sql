-- Revenue: payments reported by the site's server, refunds against them, attribution of every
-- conversion to the visits before it under all four models, a daily revenue rollup per credited
-- source, and the ECB's euro reference rates.

-- Units of `currency` per one euro on `day` (the ECB's convention).
create table exchange_rates (
  day date not null,
  currency text not null,
  per_euro numeric(24, 10) not null check (per_euro > 0),
  primary key (day, currency)
);

-- One row per (site, provider, transaction_id): the idempotency key, durable, no expiry.
-- Each payment is also a conversion: an `events` row named `payment` or `trial` whose
-- event_id is `pay_` + this id.
create table payments (
  site_id uuid not null,
  id uuid not null,
  provider text not null,
  transaction_id text not null,
  kind text not null check (kind in ('payment', 'trial')),
  amount_minor bigint not null check (amount_minor >= 0),
  currency text not null,
  refunded_minor bigint not null default 0 check (refunded_minor >= 0 and refunded_minor <= amount_minor),
  renewal boolean not null default false,
  customer_id text,
  visitor_id text,
  person_key text,
  paid_at timestamptz not null,
  received_at timestamptz not null,
  -- Set once the attribution job has credited the payment (daily_revenue holds its gross).
  attributed_at timestamptz,
  primary key (site_id, id),
  unique (site_id, provider, transaction_id)
);

-- Refunds are dated when posted (or at the post's timestamp); past days are never rewritten.
-- `applied` turns true once the refund is in daily_revenue (at once when the payment is
-- already attributed, otherwise by the attribution job).
create table refunds (
  site_id uuid not null,
  id uuid not null,
  payment_id uuid not null,
  amount_minor bigint not null check (amount_minor > 0),
  refunded_at timestamptz not null,
  created_at timestamptz not null,
  applied boolean not null default false,
  primary key (site_id, id)
);
create index refunds_payment_idx on refunds (site_id, payment_id);

-- A durable job per conversion event: claimed with FOR UPDATE SKIP LOCKED, retried on failure.
create table attribution_jobs (
  site_id uuid not null,
  event_id text not null,
  status text not null default 'pending' check (status in ('pending', 'done', 'failed')),
  attempts integer not null default 0,
  run_after timestamptz not null,
  last_error text,
  created_at timestamptz not null,
  finished_at timestamptz,
  primary key (site_id, event_id)
);
create index attribution_jobs_due_idx on attribution_jobs (run_after) where status = 'pending';

-- Credit of one conversion per model and source (the visit's session_ai_source label).
-- Shares of one (event, model) sum to 1. No rows for a conversion nobody can be credited with.
create table attribution_credits (
  site_id uuid not null,
  event_id text not null,
  model text not null check (model in ('first_touch', 'last_touch', 'linear', 'time_decay')),
  source text not null,
  source_kind text not null,
  share double precision not null check (share > 0 and share <= 1),
  primary key (site_id, event_id, model, source)
);

-- Revenue per day, model and credited source, in the payment's currency; `source` is '' for
-- unattributed revenue. Amounts are fractional minor units (a linear share of 100 cents over
-- three sources is 33.33…). Counts are credited shares of conversions; trials counted apart.
create table daily_revenue (
  site_id uuid not null,
  day date not null,
  model text not null,
  source text not null,
  currency text not null,
  gross_minor numeric(24, 6) not null default 0,
  refunded_minor numeric(24, 6) not null default 0,
  conversions numeric(20, 6) not null default 0,
  trials numeric(20, 6) not null default 0,
  primary key (site_id, day, model, source, currency)
);
