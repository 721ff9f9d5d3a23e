/** Completions, people converted and conversion rate of every goal over the view's range. */
import { useStats } from '../../api/sites';
import { queryScope, type ViewState } from '../../lib/view-state';

/** The base of the conversion rates: everyone with a visit in the view. */
function useVisitorsInView(siteId: string, view: ViewState) {
  return useStats({ site_id: siteId, metrics: ['visitors'], ...queryScope(view) });
}

export interface GoalFigures {
  completions: number;
  converted: number;
  /** Percent of the range's visitors who converted. */
  rate: number;
}

export function useGoalFigures(siteId: string, view: ViewState) {
  const base = useVisitorsInView(siteId, view);
  const byGoal = useStats({
    site_id: siteId,
    metrics: ['conversions', 'visitors'],
    dimensions: ['event:goal'],
    ...queryScope(view),
    limit: 500,
  });
  const visitors = base.data?.results[0]?.metrics[0] ?? 0;
  const figures = new Map<string, GoalFigures>();
  for (const row of byGoal.data?.results ?? []) {
    const name = row.dimensions[0];
    if (!name) continue;
    const converted = row.metrics[1] ?? 0;
    figures.set(name, {
      completions: row.metrics[0] ?? 0,
      converted,
      rate: visitors > 0 ? (converted / visitors) * 100 : 0,
    });
  }
  return {
    figures,
    isPending: base.isPending || byGoal.isPending,
    error: base.error ?? byGoal.error,
    retry: () => {
      base.refetch();
      byGoal.refetch();
    },
  };
}

export const NO_FIGURES: GoalFigures = { completions: 0, converted: 0, rate: 0 };
