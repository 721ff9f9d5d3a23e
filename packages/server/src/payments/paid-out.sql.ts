/**
 * The money revenue is counted in: what the processor paid out. A payment's amount and currency,
 * and each refund's amount, are what the processor settled when it named a settlement (a charge
 * in another currency), else what was charged; a refund is counted in its payment's currency.
 * Every reader and the revenue ledger take the rule from here, in SQL or in TypeScript.
 */
import { type RawBuilder, sql } from 'kysely';

const column = (alias: string | undefined, name: string) => sql.ref(alias ? `${alias}.${name}` : name);

/** The counted minor units of a `payments` or `refunds` row (`alias`, or unqualified). */
export function paidOutMinor(alias?: string): RawBuilder<number> {
  return sql`coalesce(${column(alias, 'settlement_minor')}, ${column(alias, 'amount_minor')})`;
}

/** The counted currency of a `payments` row (`alias`, or unqualified); its refunds' too. */
export function paidOutCurrency(alias?: string): RawBuilder<string> {
  return sql`coalesce(${column(alias, 'settlement_currency')}, ${column(alias, 'currency')})`;
}

/** `paidOutMinor` of a row already read. */
export function paidOutMinorOf(row: { settlement_minor?: number | null; amount_minor: number }): number {
  return row.settlement_minor ?? row.amount_minor;
}

/** `paidOutCurrency` of a payment row already read. */
export function paidOutCurrencyOf(payment: { settlement_currency: string | null; currency: string }): string {
  return payment.settlement_currency ?? payment.currency;
}
