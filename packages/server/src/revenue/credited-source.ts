/**
 * The one source a conversion counts for (README, "Conversions"): the source attribution credits
 * it to under a model, and under linear and time_decay, where credit is split, the one with the
 * largest share. Shares equal to nine decimals are a tie, broken by source name, exactly as SQL
 * picks it (credited-source.sql.ts) for the conversion listing's `ai_source`.
 */
import type { Credits } from '../attribution/models.js';
import { MICRO_PER_UNIT } from './split-amount.js';

/** The label of a conversion no visit led to (DESIGN.md §4: no referrer and no campaign). */
export const DIRECT_SOURCE = 'direct';

/**
 * The source a report shows for a stored one: the ledger keeps revenue no visit could be credited
 * with under '' (UNATTRIBUTED_SOURCE), and a conversion with no visit in its window is direct.
 */
export const reportedSource = (stored: string) => stored || DIRECT_SOURCE;

/** How many decimals of a share tell two shares apart. */
export const SHARE_TIE_DECIMALS = 9;

const rounded = (share: number) => Math.round(share * 10 ** SHARE_TIE_DECIMALS);

/** The source with the largest share; undefined when the model credited nobody. */
export function creditedSource(credits: ReadonlyMap<string, number>): string | undefined {
  let best: [string, number] | undefined;
  for (const [source, share] of credits) {
    if (
      !best ||
      rounded(share) > rounded(best[1]) ||
      (rounded(share) === rounded(best[1]) && source < best[0])
    )
      best = [source, share];
  }
  return best?.[0];
}

/**
 * One conversion as the ledger posts it, in millionths: whole to the credited source, nothing
 * (but a row, like the money's) to the other sources sharing its revenue.
 */
export function countOnce(credits: Credits): Map<string, bigint> {
  const source = creditedSource(credits);
  return new Map([...credits.keys()].map((other) => [other, other === source ? MICRO_PER_UNIT : 0n]));
}
