import { formatCount, formatPercent } from '../../lib/format';
import type { GoalFigures } from './goal-figures';

/** A goal's completions, people converted and conversion rate, as a definition list. */
export function GoalFiguresList({ figures, className }: { figures: GoalFigures; className: string }) {
  return (
    <dl className={className}>
      <div>
        <dt>Completions</dt>
        <dd>{formatCount(figures.completions)}</dd>
      </div>
      <div>
        <dt>People converted</dt>
        <dd>{formatCount(figures.converted)}</dd>
      </div>
      <div>
        <dt>Conversion rate</dt>
        <dd>{formatPercent(figures.rate)}</dd>
      </div>
    </dl>
  );
}
