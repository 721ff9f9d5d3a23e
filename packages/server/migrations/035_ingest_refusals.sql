-- Hits the ingest refused before storing anything, counted per site, five-minute period and
-- reason, so a site whose only traffic is refused (a headless browser, curl) can say so instead
-- of waiting for a first event that never comes. Counts only: no user agent, address or URL.
create table ingest_refusals (
  site_id uuid not null references sites (id) on delete cascade,
  period_start timestamptz not null,
  reason text not null check (reason in ('bot')),
  hits integer not null,
  primary key (site_id, period_start, reason)
);
