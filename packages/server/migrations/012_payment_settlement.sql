-- What the processor paid out for a payment, when it says so: the amount and currency the money
-- settled in (a charge of 100 EUR settled as 108.50 USD). Revenue is then counted in the
-- settlement, and each refund in its share of it (refunds.settlement_minor), so a full refund
-- takes back exactly what was counted.
alter table payments add column settlement_minor bigint check (settlement_minor >= 0);
alter table payments add column settlement_currency text;
alter table payments add constraint payments_settlement_pair
  check ((settlement_minor is null) = (settlement_currency is null));
alter table refunds add column settlement_minor bigint check (settlement_minor >= 0);
