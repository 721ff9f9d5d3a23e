/** The event types a webhook can receive, as checkboxes. */
import { WEBHOOK_EVENT_TYPES } from '../../api/settings';

export function EventTypeChoices({
  value,
  onChange,
  legend = 'Events to send',
}: {
  value: string[];
  onChange: (types: string[]) => void;
  legend?: string;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {WEBHOOK_EVENT_TYPES.map((type) => (
        <label className="choice" key={type.key}>
          <input
            type="checkbox"
            checked={value.includes(type.key)}
            onChange={(e) =>
              onChange(e.target.checked ? [...value, type.key] : value.filter((t) => t !== type.key))
            }
          />
          <span>
            <span className="mono">{type.key}</span>
            <span className="small muted">{type.label}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
