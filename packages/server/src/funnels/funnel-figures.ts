/**
 * A funnel report as the API answers it (DESIGN.md §7 shapes): per step the people who reached
 * it, conversion from the step before and from step 1 in percent with one decimal, the people
 * lost since the step before, and the median whole seconds to the next step.
 */
import type { FunnelReportRow } from './funnel-report.query.js';
import { type FunnelStep, stepLabel } from './funnel-steps.js';

export interface FunnelStepFigures {
  index: number;
  label: string;
  visitors: number;
  conversion_from_previous: number;
  conversion_from_first: number;
  drop_off: number;
  median_seconds_to_next: number | null;
}

/** Percent with one decimal; 0 when nobody was there to convert. */
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10);

export function stepFigures(steps: FunnelStep[], row: FunnelReportRow | undefined): FunnelStepFigures[] {
  const reached = steps.map((_, i) => row?.reached[i] ?? 0);
  return steps.map((step, i) => {
    const visitors = reached[i] as number;
    const previous = i === 0 ? visitors : (reached[i - 1] as number);
    return {
      index: i + 1,
      label: stepLabel(step),
      visitors,
      conversion_from_previous: percent(visitors, previous),
      conversion_from_first: percent(visitors, reached[0] as number),
      drop_off: previous - visitors,
      median_seconds_to_next: row?.medianSeconds[i] ?? null,
    };
  });
}

/** Groups by people at step 1, most first, then by value (nulls last). */
export function breakdownFigures(steps: FunnelStep[], rows: FunnelReportRow[]) {
  return rows
    .filter((row) => row.isGroup)
    .sort(
      (a, b) =>
        (b.reached[0] ?? 0) - (a.reached[0] ?? 0) ||
        (a.value === b.value ? 0 : a.value === null ? 1 : b.value === null ? -1 : a.value < b.value ? -1 : 1),
    )
    .map((row) => ({ value: row.value, steps: stepFigures(steps, row) }));
}
