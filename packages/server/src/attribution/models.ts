/**
 * The four attribution models (DESIGN.md §4) as pure functions: touchpoints in, credit per
 * source out. The worker passes the person's visits of the 30 days up to the conversion; these
 * functions take whatever they are given. Ties between visits starting at the same instant
 * are broken by visit id, so the result never depends on the order of the input.
 */
import type { AttributionModel } from '../db/types.js';
import { DAY_MS } from '../lib/clock.js';

export interface Touchpoint {
  visitId: string;
  /** The visit's `session_ai_source` label: what gets the credit. */
  source: string;
  sourceKind: string;
  startedAt: Date;
}

/** Share of the conversion per source; shares sum to 1, empty when there is no touchpoint. */
export type Credits = Map<string, number>;

/** Every model, in the order reports list them; db/types.ts `AttributionModel` names the same four. */
export const ATTRIBUTION_MODELS = [
  'first_touch',
  'last_touch',
  'linear',
  'time_decay',
] as const satisfies readonly AttributionModel[];

/** A visit's time-decay weight halves every seven days of age. */
export const TIME_DECAY_HALF_LIFE_MS = 7 * DAY_MS;

/** Oldest first; same instant: by visit id. */
function chronological(touchpoints: readonly Touchpoint[]): Touchpoint[] {
  return [...touchpoints].sort(
    (a, b) =>
      a.startedAt.getTime() - b.startedAt.getTime() ||
      (a.visitId < b.visitId ? -1 : a.visitId > b.visitId ? 1 : 0),
  );
}

/** Normalises per-visit weights into per-source shares that sum to 1. */
function sharesOf(weighted: readonly { source: string; weight: number }[]): Credits {
  const total = weighted.reduce((sum, entry) => sum + entry.weight, 0);
  const credits: Credits = new Map();
  for (const { source, weight } of weighted) {
    credits.set(source, (credits.get(source) ?? 0) + weight / total);
  }
  return credits;
}

export function firstTouch(touchpoints: readonly Touchpoint[]): Credits {
  const first = chronological(touchpoints)[0];
  return first ? new Map([[first.source, 1]]) : new Map();
}

export function lastTouch(touchpoints: readonly Touchpoint[]): Credits {
  const last = chronological(touchpoints).at(-1);
  return last ? new Map([[last.source, 1]]) : new Map();
}

export function linear(touchpoints: readonly Touchpoint[]): Credits {
  if (touchpoints.length === 0) return new Map();
  return sharesOf(chronological(touchpoints).map(({ source }) => ({ source, weight: 1 })));
}

/**
 * Each visit weighs 2^(−age / 7 days), age measured from the conversion. Weights are taken
 * relative to the newest visit (the factor cancels out), so no weight underflows to zero
 * however old the input; a visit after the conversion counts as age 0.
 */
export function timeDecay(touchpoints: readonly Touchpoint[], convertedAt: Date): Credits {
  if (touchpoints.length === 0) return new Map();
  const ordered = chronological(touchpoints);
  const ageOf = (tp: Touchpoint) => Math.max(0, convertedAt.getTime() - tp.startedAt.getTime());
  // reduce, not Math.min(...): a spread of very many visits would overflow the call stack.
  const youngest = ordered.reduce((min, tp) => Math.min(min, ageOf(tp)), Number.POSITIVE_INFINITY);
  return sharesOf(
    ordered.map((tp) => ({
      source: tp.source,
      weight: 2 ** (-(ageOf(tp) - youngest) / TIME_DECAY_HALF_LIFE_MS),
    })),
  );
}

/** Credits under every model, computed once per conversion and stored (reports only sum them). */
export function attributeUnderAllModels(
  touchpoints: readonly Touchpoint[],
  convertedAt: Date,
): Record<AttributionModel, Credits> {
  return {
    first_touch: firstTouch(touchpoints),
    last_touch: lastTouch(touchpoints),
    linear: linear(touchpoints),
    time_decay: timeDecay(touchpoints, convertedAt),
  };
}

/**
 * The kind stored beside each credited source: that of the source's latest visit (a label
 * normally has one kind; this settles the rare label seen under two).
 */
export function sourceKinds(touchpoints: readonly Touchpoint[]): Map<string, string> {
  const kinds = new Map<string, string>();
  for (const tp of chronological(touchpoints)) kinds.set(tp.source, tp.sourceKind);
  return kinds;
}

/**
 * One model's credits in the order webhooks list them: largest share first, then by source, so
 * `conversion.attributed` and `conversion.refunded` name the sources of a payment alike.
 */
export function creditsInOrder<T extends { model: AttributionModel; source: string; share: number }>(
  rows: readonly T[],
  model: AttributionModel,
): T[] {
  return rows
    .filter((row) => row.model === model)
    .sort((a, b) => b.share - a.share || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}
