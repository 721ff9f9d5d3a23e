/** The steps of a funnel: each a page (exact, containing, or a `*` pattern) or an event; add, move, remove. */
import { useId } from 'react';
import type { PageMatch } from '../../api/funnels';
import { type DraftStep, MAX_STEPS, MIN_STEPS, pageStep, stepProblem } from './draft';

const MATCHES: { key: PageMatch; label: string }[] = [
  { key: 'is', label: 'is' },
  { key: 'contains', label: 'contains' },
  { key: 'matches', label: 'matches pattern' },
];

function StepRow({
  step,
  index,
  count,
  showProblems,
  goalNames,
  onChange,
  onMove,
  onRemove,
}: {
  step: DraftStep;
  index: number;
  count: number;
  showProblems: boolean;
  goalNames: string;
  onChange: (step: DraftStep) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const n = index + 1;
  const problem = showProblems ? stepProblem(step) : null;
  return (
    <li className="step-row">
      <span className="step-number" aria-hidden="true">
        {n}
      </span>
      <div className="step-fields">
        <label className="visually-hidden" htmlFor={`${id}-type`}>
          Step {n} kind
        </label>
        <select
          id={`${id}-type`}
          className="input"
          value={step.type}
          onChange={(e) => onChange({ ...step, type: e.target.value as DraftStep['type'] })}
        >
          <option value="page">Page</option>
          <option value="event">Event</option>
        </select>
        {step.type === 'page' ? (
          <>
            <label className="visually-hidden" htmlFor={`${id}-match`}>
              Step {n} match
            </label>
            <select
              id={`${id}-match`}
              className="input"
              value={step.match}
              onChange={(e) => onChange({ ...step, match: e.target.value as PageMatch })}
            >
              {MATCHES.map((m) => (
                <option key={m.key} value={m.key}>
                  {m.label}
                </option>
              ))}
            </select>
            <label className="visually-hidden" htmlFor={`${id}-value`}>
              Step {n} path
            </label>
            <input
              id={`${id}-value`}
              className="input step-value"
              value={step.value}
              placeholder={step.match === 'matches' ? '/blog/*' : '/pricing'}
              maxLength={200}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
              onChange={(e) => onChange({ ...step, value: e.target.value })}
            />
          </>
        ) : (
          <>
            <label className="visually-hidden" htmlFor={`${id}-name`}>
              Step {n} event name
            </label>
            <input
              id={`${id}-name`}
              className="input step-value"
              value={step.name}
              placeholder="signup"
              list={goalNames}
              maxLength={64}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
              onChange={(e) => onChange({ ...step, name: e.target.value })}
            />
            <label className="visually-hidden" htmlFor={`${id}-key`}>
              Step {n} property (optional)
            </label>
            <input
              id={`${id}-key`}
              className="input step-property"
              value={step.propertyKey}
              placeholder="property (optional)"
              maxLength={200}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => onChange({ ...step, propertyKey: e.target.value })}
            />
            {step.propertyKey.trim() && (
              <>
                <label className="visually-hidden" htmlFor={`${id}-property-value`}>
                  Step {n} property value
                </label>
                <input
                  id={`${id}-property-value`}
                  className="input step-property"
                  value={step.propertyValue}
                  placeholder="value"
                  maxLength={4096}
                  onChange={(e) => onChange({ ...step, propertyValue: e.target.value })}
                />
              </>
            )}
          </>
        )}
        {problem && (
          <span className="form-error step-problem" id={`${id}-problem`}>
            {problem}
          </span>
        )}
      </div>
      <div className="step-actions">
        <button
          type="button"
          className="button icon"
          disabled={index === 0}
          onClick={() => onMove(index - 1)}
          aria-label={`Move step ${n} up`}
        >
          ↑
        </button>
        <button
          type="button"
          className="button icon"
          disabled={index === count - 1}
          onClick={() => onMove(index + 1)}
          aria-label={`Move step ${n} down`}
        >
          ↓
        </button>
        <button
          type="button"
          className="button icon"
          disabled={count <= MIN_STEPS}
          onClick={onRemove}
          aria-label={`Remove step ${n}`}
        >
          ×
        </button>
      </div>
    </li>
  );
}

export function StepEditor({
  steps,
  onChange,
  showProblems,
  goalNames,
}: {
  steps: DraftStep[];
  onChange: (steps: DraftStep[]) => void;
  showProblems: boolean;
  goalNames: string[];
}) {
  const listId = useId();
  const move = (from: number, to: number) => {
    const next = [...steps];
    const [moved] = next.splice(from, 1);
    if (moved) next.splice(to, 0, moved);
    onChange(next);
  };
  return (
    <fieldset className="steps">
      <legend>Steps, in order</legend>
      <datalist id={listId}>
        {goalNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <ol className="step-list">
        {steps.map((step, i) => (
          <StepRow
            key={step.key}
            step={step}
            index={i}
            count={steps.length}
            showProblems={showProblems}
            goalNames={listId}
            onChange={(changed) => onChange(steps.map((s) => (s.key === step.key ? changed : s)))}
            onMove={(to) => move(i, to)}
            onRemove={() => onChange(steps.filter((s) => s.key !== step.key))}
          />
        ))}
      </ol>
      <button
        type="button"
        className="button"
        disabled={steps.length >= MAX_STEPS}
        onClick={() => onChange([...steps, pageStep()])}
      >
        Add a step
      </button>
      {steps.length >= MAX_STEPS && (
        <span className="muted small"> A funnel has at most {MAX_STEPS} steps.</span>
      )}
    </fieldset>
  );
}
