/** The "Data retention" fieldset of the General form: how long raw events and visits are kept. */
import { useId } from 'react';
import { EVENTS_RETENTION_CHOICES, VISITS_RETENTION_CHOICES } from '../../api/sites';

export interface Retention {
  events: number | null;
  visits: number | null;
}

/** `locked`: the signed-in person is a member; only an admin may shorten what is kept. */
export function DataRetention({
  value,
  onChange,
  locked = false,
}: {
  value: Retention;
  onChange: (value: Retention) => void;
  locked?: boolean;
}) {
  const hintId = useId();
  return (
    <fieldset aria-describedby={hintId} disabled={locked}>
      <legend>Data retention</legend>
      <p className="small muted" id={hintId} style={{ marginTop: 0 }}>
        Raw events and visits older than this are deleted for good. Daily totals stay, so reports over past
        days keep their figures; lists of single events and visitors stop at the limit.
        {locked && ' Only an admin of the account can change these.'}
      </p>
      <RetentionSelect
        label="Raw events"
        hint="Pageviews, events and their properties. By default conversions are kept 365 days and the rest is kept."
        unset="Default"
        choices={EVENTS_RETENTION_CHOICES}
        value={value.events}
        onChange={(events) => onChange({ ...value, events })}
      />
      <RetentionSelect
        label="Visits and visitors"
        hint="Counted from the end of each visit; a visitor goes once none of their visits is left."
        unset="Keep"
        choices={VISITS_RETENTION_CHOICES}
        value={value.visits}
        onChange={(visits) => onChange({ ...value, visits })}
      />
    </fieldset>
  );
}

function RetentionSelect(props: {
  label: string;
  hint: string;
  unset: string;
  choices: number[];
  value: number | null;
  onChange: (value: number | null) => void;
}) {
  const id = useId();
  // A value set through the API that the list does not offer is shown as it is.
  const choices =
    props.value === null || props.choices.includes(props.value)
      ? props.choices
      : [...props.choices, props.value].sort((a, b) => a - b);
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        aria-describedby={`${id}-hint`}
        value={props.value === null ? '' : String(props.value)}
        onChange={(e) => props.onChange(e.target.value === '' ? null : Number(e.target.value))}
      >
        <option value="">{props.unset}</option>
        {choices.map((days) => (
          <option key={days} value={String(days)}>
            {days} days
          </option>
        ))}
      </select>
      <span className="hint" id={`${id}-hint`}>
        {props.hint}
      </span>
    </div>
  );
}
