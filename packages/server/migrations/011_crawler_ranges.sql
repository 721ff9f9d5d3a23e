-- Telling real AI crawlers from ones that only borrow their names: the address ranges that
-- crawler operators publish, refreshed by a background job, and the result of checking each
-- reported hit's address against them. The address itself is never stored.

create table crawler_ip_ranges (
  crawler text primary key,
  source_url text not null,
  prefixes jsonb not null,
  fetched_at timestamptz not null
);

-- true: the address is inside the operator's published ranges; false: outside (spoofed);
-- null: not checked (no address sent, or no ranges known for this crawler).
alter table crawler_hits add column verified boolean;

-- hits counts every hit not known to be spoofed; verified_hits is the part of it checked
-- against published ranges, spoofed_hits the hits from outside them (not in hits).
alter table daily_crawler_hits add column verified_hits integer not null default 0;
alter table daily_crawler_hits add column spoofed_hits integer not null default 0;
