-- A payment names its conversion event in a column: the attribution job finds the payment of a
-- conversion by it instead of reading the `pay_` prefix of the event id. The id keeps that form
-- (`pay_` + the payment's id), since webhooks and listings show it.
alter table payments add column event_id text;
update payments set event_id = 'pay_' || id;
alter table payments alter column event_id set not null;
alter table payments add constraint payments_event_id_unique unique (site_id, event_id);
