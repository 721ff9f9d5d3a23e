/**
 * Conversion events (type `event`, any name) in the window for a set of visitor ids and person
 * keys: how many, and the sum of their values in the site's currency. An event with a visitor id
 * is counted for that visitor id; one with only a person key (a server event) for that key.
 *
 * Values in another currency are converted through the euro at the ECB rate of their day (or the
 * latest earlier day), summed per day and currency first and rounded once per such group, as
 * the revenue report does. A value whose currency has no rate on record is left out of the sum
 * and kept per currency under `unconverted`; its event still counts.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { isEventOfPeople } from '../identity/identity.sql.js';
import { toMajorUnits, toMinorUnits } from '../lib/money.js';
import { convertMajor, roundToCurrency } from '../rates/exchange.js';
import { perEuroOn } from '../rates/exchange.sql.js';

export interface ConversionTotal {
  /** Set for events carrying a visitor id. */
  visitor_id: string | null;
  /** Set for events carrying only a person key. */
  person_key: string | null;
  conversion_count: number;
  /** Minor units of the site's currency. */
  total_minor: number;
  /** Values with no rate on record, per currency, in minor units of that currency. */
  unconverted: Map<string, number>;
}

interface DayGroup {
  visitor_id: string | null;
  person_key: string | null;
  currency: string | null;
  conversion_count: number;
  value_minor: number;
  from_per_euro: number | null;
  to_per_euro: number | null;
}

export async function sumConversions(
  db: Kysely<DB>,
  q: {
    siteId: string;
    visitorIds: readonly string[];
    personKeys: readonly string[];
    currency: string;
    start: Date;
    end: Date;
  },
): Promise<ConversionTotal[]> {
  if (q.visitorIds.length === 0 && q.personKeys.length === 0) return [];
  const { rows } = await sql<DayGroup>`
    select g.*, ${perEuroOn(sql`g.currency`, sql`g.day`)} as from_per_euro,
      ${perEuroOn(q.currency, sql`g.day`)} as to_per_euro
    from (
      select visitor_id,
             case when visitor_id is null then person_key end as person_key,
             currency, (occurred_at at time zone 'UTC')::date as day,
             count(*) as conversion_count,
             coalesce(sum(value_minor), 0) as value_minor
      from events
      where site_id = ${q.siteId} and type = 'event'
        and occurred_at >= ${q.start} and occurred_at < ${q.end}
        and ${isEventOfPeople(q)}
      group by 1, 2, 3, 4
    ) g
  `.execute(db);
  const totals = new Map<string, ConversionTotal>();
  for (const group of rows) {
    const key = `${group.visitor_id ?? ''}|${group.person_key ?? ''}`;
    const total = totals.get(key) ?? {
      visitor_id: group.visitor_id,
      person_key: group.person_key,
      conversion_count: 0,
      total_minor: 0,
      unconverted: new Map<string, number>(),
    };
    total.conversion_count += Number(group.conversion_count);
    const converted = inSiteCurrency(group, q.currency);
    if (converted !== null) total.total_minor += converted;
    else {
      const code = group.currency as string;
      total.unconverted.set(code, (total.unconverted.get(code) ?? 0) + Number(group.value_minor));
    }
    totals.set(key, total);
  }
  return [...totals.values()];
}

/** A group's values in minor units of the site's currency; null when no rate converts them. */
function inSiteCurrency(group: DayGroup, siteCurrency: string): number | null {
  const amountMinor = Number(group.value_minor);
  if (!group.currency || amountMinor === 0) return 0;
  if (group.currency === siteCurrency) return amountMinor;
  const converted = convertMajor(toMajorUnits(amountMinor, group.currency), group.currency, siteCurrency, {
    from: group.from_per_euro === null ? null : Number(group.from_per_euro),
    to: group.to_per_euro === null ? null : Number(group.to_per_euro),
  });
  return converted === null ? null : toMinorUnits(roundToCurrency(converted, siteCurrency), siteCurrency);
}
