/**
 * The per-page rule of AI visibility. Credits are stored per conversion, model and source (the
 * assistant), not per visit, so an assistant's share is split again over that assistant's visits
 * among the conversion's touchpoints by the same model (models.ts) applied to those visits:
 * first_touch and last_touch give it all to the first or last of them, linear evenly, time_decay
 * by 2^(−age/7 days). Each part goes to its visit's entry page. While the touchpoints are what
 * the attribution saw, this is exactly the model's per-visit credit; a share none of whose visits
 * can be found any more is counted apart, as unplaced.
 *
 * The conversion itself counts once (README, "What counts as a conversion"): only when its
 * credited source is an assistant, and then on the entry page that carries the largest part of
 * that assistant's share (equal parts to the first page by path).
 */
import { firstTouch, lastTouch, linear, type Touchpoint, timeDecay } from '../attribution/models.js';
import type { AttributionModel } from '../db/types.js';
import { creditedSource } from '../revenue/credited-source.js';
import type { CreditedVisitRow } from './credited-conversions.query.js';

export interface PageShares {
  /** Share of the conversion per entry page. */
  pages: Map<string, number>;
  /** AI-credited share with no visit found to carry it. */
  unplaced: number;
  /**
   * Where the conversion counts: a page, null when none of the credited assistant's visits is
   * found any more, undefined when its credited source is not an assistant.
   */
  countedOn?: string | null;
}

/** The model's weight of each visit, keyed by visit id (each visit its own "source"). */
function visitWeights(model: AttributionModel, visits: Touchpoint[], at: Date): Map<string, number> {
  const own = visits.map((visit) => ({ ...visit, source: visit.visitId }));
  switch (model) {
    case 'first_touch':
      return firstTouch(own);
    case 'last_touch':
      return lastTouch(own);
    case 'linear':
      return linear(own);
    case 'time_decay':
      return timeDecay(own, at);
  }
}

/**
 * Page shares of each conversion (by event id) from its credited-visit rows; `countedFor` names
 * the assistant each conversion counts for, when it counts for one.
 */
export function pageSharesOf(
  model: AttributionModel,
  rows: readonly CreditedVisitRow[],
  convertedAt: ReadonlyMap<string, Date>,
  countedFor: ReadonlyMap<string, string> = new Map(),
): Map<string, PageShares> {
  const credits = new Map<string, { share: number; visits: (Touchpoint & { page: string | null })[] }>();
  for (const row of rows) {
    const key = JSON.stringify([row.event_id, row.source]);
    const credit = credits.get(key) ?? { share: row.share, visits: [] };
    if (row.visit_id !== null && row.started_at !== null) {
      credit.visits.push({
        visitId: row.visit_id,
        source: row.source,
        sourceKind: 'ai',
        startedAt: new Date(row.started_at),
        page: row.page,
      });
    }
    credits.set(key, credit);
  }
  const result = new Map<string, PageShares>();
  for (const [key, credit] of credits) {
    const [eventId, source] = JSON.parse(key) as [string, string];
    const shares = result.get(eventId) ?? { pages: new Map<string, number>(), unplaced: 0 };
    result.set(eventId, shares);
    const weights = visitWeights(model, credit.visits, convertedAt.get(eventId) ?? new Date(0));
    let placed = 0;
    const byPage = new Map<string, number>();
    for (const visit of credit.visits) {
      const weight = weights.get(visit.visitId) ?? 0;
      if (weight === 0 || visit.page === null) continue;
      shares.pages.set(visit.page, (shares.pages.get(visit.page) ?? 0) + credit.share * weight);
      byPage.set(visit.page, (byPage.get(visit.page) ?? 0) + weight);
      placed += weight;
    }
    shares.unplaced += credit.share * (1 - placed);
    if (countedFor.get(eventId) === source) shares.countedOn = creditedSource(byPage) ?? null;
  }
  return result;
}
