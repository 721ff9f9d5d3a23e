/**
 * A funnel report: each step's people as a bar as wide as its share of step 1, with the same
 * figures in words: people, conversion from the start, and who dropped off since the step before.
 */
import type { StepFigures } from '../../api/funnels';
import { formatCount, formatDuration } from '../../lib/format';

const percent = (value: number) => `${value.toFixed(1).replace(/\.0$/, '')}%`;

export function FunnelSteps({ steps }: { steps: StepFigures[] }) {
  return (
    <ol className="funnel-steps" aria-label="People at each step">
      {steps.map((step) => (
        <li key={step.index} className="funnel-step">
          <div className="funnel-step-head">
            <span className="step-number" aria-hidden="true">
              {step.index}
            </span>
            <span className="funnel-step-label">{step.label}</span>
            <strong className="funnel-step-people">
              {formatCount(step.visitors)} {step.visitors === 1 ? 'person' : 'people'}
            </strong>
          </div>
          <div className="funnel-bar" aria-hidden="true">
            <div style={{ width: `${Math.min(100, step.conversion_from_first)}%` }} />
          </div>
          <p className="funnel-step-figures small">
            {step.index === 1 ? (
              'Everyone who entered the funnel'
            ) : (
              <>
                <span>{percent(step.conversion_from_first)} of step 1</span>
                {step.index > 2 && (
                  <span>
                    {percent(step.conversion_from_previous)} of step {step.index - 1}
                  </span>
                )}
                <span className={step.drop_off > 0 ? 'dropped' : undefined}>
                  {formatCount(step.drop_off)} dropped off since step {step.index - 1}
                </span>
              </>
            )}
            {step.median_seconds_to_next !== null && (
              <span className="muted median">
                median {formatDuration(step.median_seconds_to_next)} to the next step
              </span>
            )}
          </p>
        </li>
      ))}
    </ol>
  );
}
