/**
 * Helpers shared by the payment tests: a post, a fresh transaction id, the stored rows of a
 * site, and an attribution written by hand (the attribution job's part of the contract).
 */
import { randomBytes } from 'node:crypto';
import type { AttributionModel } from '../db/types.js';
import { creditedSource } from '../revenue/credited-source.js';
import { bearer, type TestApp } from '../test/app.js';

export const newTransactionId = () => `ch_${randomBytes(9).toString('hex')}`;

export function postPayment(t: TestApp, key: string, body: Record<string, unknown>) {
  return t.request({ method: 'POST', url: '/v1/server/payments', headers: bearer(key), payload: body });
}

export async function storedRows(t: TestApp, siteId: string) {
  const db = t.database.db;
  const [payments, refunds, events, completions, jobs, links] = await Promise.all([
    db.selectFrom('payments').selectAll().where('site_id', '=', siteId).orderBy('paid_at').execute(),
    db.selectFrom('refunds').selectAll().where('site_id', '=', siteId).orderBy('created_at').execute(),
    db.selectFrom('events').selectAll().where('site_id', '=', siteId).execute(),
    db
      .selectFrom('daily_goal_completions')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('day')
      .execute(),
    db.selectFrom('attribution_jobs').selectAll().where('site_id', '=', siteId).execute(),
    db.selectFrom('identity_links').selectAll().where('site_id', '=', siteId).execute(),
  ]);
  return { payments, refunds, events, completions, jobs, links };
}

export const sumOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0);

/**
 * What the attribution job leaves behind for a payment: its credits per model and source, its
 * gross in daily_revenue on the payment's day, and `attributed_at`.
 */
export async function attributeByHand(
  t: TestApp,
  siteId: string,
  paymentId: string,
  credits: { model: AttributionModel; source: string; share: number }[],
) {
  const db = t.database.db;
  const payment = await db
    .selectFrom('payments')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow();
  if (credits.length > 0) {
    await db
      .insertInto('attribution_credits')
      .values(
        credits.map((c) => ({ site_id: siteId, event_id: `pay_${paymentId}`, source_kind: 'ai', ...c })),
      )
      .execute();
  }
  const day = payment.paid_at.toISOString().slice(0, 10);
  const rows = credits.length > 0 ? credits : allModels('', 1);
  const counted = new Map(
    [...new Set(rows.map((c) => c.model))].map((model) => [
      model,
      creditedSource(new Map(rows.filter((c) => c.model === model).map((c) => [c.source, c.share]))),
    ]),
  );
  await db
    .insertInto('daily_revenue')
    .values(
      rows.map((c) => ({
        site_id: siteId,
        day,
        model: c.model,
        source: c.source,
        currency: payment.currency,
        gross_minor: c.share * payment.amount_minor,
        // Counted once, for the model's credited source, as the ledger posts it.
        conversions: c.source === counted.get(c.model) ? 1 : 0,
      })),
    )
    .execute();
  await db
    .updateTable('payments')
    .set({ attributed_at: t.clock.now() })
    .where('site_id', '=', siteId)
    .where('id', '=', paymentId)
    .execute();
}

export function allModels(source: string, share: number) {
  return (['first_touch', 'last_touch', 'linear', 'time_decay'] as const).map((model) => ({
    model,
    source,
    share,
  }));
}
