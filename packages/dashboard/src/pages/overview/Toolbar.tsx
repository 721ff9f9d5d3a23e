/** The date range picker, the comparison switch and the filter chips, all reading and writing the URL. */
import { useState } from 'react';
import { FILTER_KEYS, RANGES, type RangeKey, type ViewState } from '../../lib/view-state';

function CustomRange({ view, update }: { view: ViewState; update: (change: Partial<ViewState>) => void }) {
  const today = new Date().toISOString().slice(0, 10);
  const [from, setFrom] = useState(view.from ?? today);
  const [to, setTo] = useState(view.to ?? today);
  return (
    <form
      className="toolbar"
      onSubmit={(event) => {
        event.preventDefault();
        if (from <= to) update({ range: 'custom', from, to });
      }}
    >
      <label className="check">
        From{' '}
        <input
          className="input"
          type="date"
          value={from}
          max={today}
          onChange={(e) => setFrom(e.target.value)}
          required
        />
      </label>
      <label className="check">
        to{' '}
        <input
          className="input"
          type="date"
          value={to}
          max={today}
          onChange={(e) => setTo(e.target.value)}
          required
        />
      </label>
      <button type="submit" className="button">
        Apply
      </button>
    </form>
  );
}

/** Pages whose reports take no filters or comparison (revenue, crawlers) leave those controls out. */
export function Toolbar({
  view,
  update,
  withFilters = true,
  withCompare = true,
}: {
  view: ViewState;
  update: (change: Partial<ViewState>) => void;
  withFilters?: boolean;
  withCompare?: boolean;
}) {
  const [customOpen, setCustomOpen] = useState(view.range === 'custom');
  return (
    <div className="toolbar" style={{ marginBottom: '1rem' }}>
      <select
        className="input"
        aria-label="Date range"
        value={customOpen ? 'custom' : view.range}
        onChange={(event) => {
          const range = event.target.value as RangeKey;
          setCustomOpen(range === 'custom');
          if (range !== 'custom') update({ range, from: undefined, to: undefined });
        }}
      >
        {RANGES.map((range) => (
          <option key={range.key} value={range.key}>
            {range.label}
          </option>
        ))}
      </select>
      {customOpen && <CustomRange view={view} update={update} />}
      {withCompare && (
        <label className="check">
          <input
            type="checkbox"
            checked={view.compare}
            onChange={(e) => update({ compare: e.target.checked })}
          />
          Compare with the previous period
        </label>
      )}
      {withFilters && view.filters.length > 0 && (
        <ul className="chips" aria-label="Filters">
          {view.filters.map((filter) => (
            <li className="chip" key={filter.key}>
              {FILTER_KEYS[filter.key].label} is <strong>{filter.value}</strong>
              <button
                type="button"
                aria-label={`Remove the filter ${FILTER_KEYS[filter.key].label} is ${filter.value}`}
                onClick={() => update({ filters: view.filters.filter((f) => f.key !== filter.key) })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
