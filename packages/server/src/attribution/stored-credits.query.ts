/**
 * The credits stored for a conversion (attribution_credits): the attribution job reads them to
 * credit a conversion once, the revenue ledger to split a refund as the payment's gross was.
 */
import type { Selectable, Transaction } from 'kysely';
import type { AttributionCreditsTable } from '../db/ingest-types.js';
import type { DB } from '../db/types.js';

export type CreditRow = Pick<
  Selectable<AttributionCreditsTable>,
  'model' | 'source' | 'source_kind' | 'share'
>;

/** The stored credits of one conversion, in a fixed order (by model, then source). */
export function loadCredits(trx: Transaction<DB>, siteId: string, eventId: string): Promise<CreditRow[]> {
  return trx
    .selectFrom('attribution_credits')
    .select(['model', 'source', 'source_kind', 'share'])
    .where('site_id', '=', siteId)
    .where('event_id', '=', eventId)
    .orderBy('model')
    .orderBy('source')
    .execute();
}
