-- A conversion now counts once, whole, for the source with the largest share of its credit
-- (revenue/credited-source.ts), where daily_revenue used to hold fractional shares of it under
-- linear and time_decay. This recounts `conversions` and `trials` from what the ledger posted
-- them from, the payments it has posted (attributed_at set) and their stored credits, which the
-- attribution job never recomputes. The money columns are not touched.
--
-- The ledger's keys (revenue/revenue-ledger.ts): a payment's count goes on its paid_at's UTC day,
-- under each model, in its settlement currency or else its own. Under a model that credited
-- nobody it goes to the unattributed source ''. Otherwise it goes to the largest share, shares
-- equal to nine decimals a tie broken by source name. The share is rounded as the ledger's
-- Math.round(share * 1e9) rounds it: the same float8 product, then floor(+ 0.5), exact at that
-- size; round(share::numeric, 9) reads the share to 15 digits only and sometimes rounds a
-- half the other way. Names are compared as JavaScript compares them: collate "C", whatever the
-- database's collation. Refunds and goal conversions carry no count: every other row reads 0.

update daily_revenue set conversions = 0, trials = 0 where conversions <> 0 or trials <> 0;

insert into daily_revenue (site_id, day, model, source, currency, conversions, trials)
select
  p.site_id,
  (p.paid_at at time zone 'UTC')::date,
  m.model,
  coalesce(credited.source, ''),
  coalesce(p.settlement_currency, p.currency),
  count(*),
  count(*) filter (where p.kind = 'trial')
from payments p
cross join (values ('first_touch'), ('last_touch'), ('linear'), ('time_decay')) as m (model)
left join lateral (
  select c.source from attribution_credits c
  where c.site_id = p.site_id and c.event_id = p.event_id and c.model = m.model
  order by floor(c.share * 1e9::float8 + 0.5) desc, c.source collate "C"
  limit 1
) credited on true
where p.attributed_at is not null
group by 1, 2, 3, 4, 5
on conflict (site_id, day, model, source, currency)
do update set conversions = excluded.conversions, trials = excluded.trials;
