/** The funnel split by the channel or AI assistant of the visit in which each person entered it. */
import { useState } from 'react';
import { type FunnelBreakdownKey, type FunnelQuery, useFunnelReport } from '../../api/funnels';
import { ErrorState, SkeletonRows } from '../../components/States';
import { Tabs } from '../../components/Tabs';
import { formatCount } from '../../lib/format';
import { assistantName, channelName } from '../../lib/names';

const BREAKDOWNS: { key: FunnelBreakdownKey; label: string }[] = [
  { key: 'visit:channel', label: 'Channel' },
  { key: 'visit:ai_source', label: 'AI assistant' },
];

function valueName(breakdown: FunnelBreakdownKey, value: string | null) {
  if (breakdown === 'visit:channel') return value === null ? 'Unknown' : channelName(value);
  return value === null ? 'Not from an AI assistant' : assistantName(value);
}

function BreakdownTable({ query, breakdown }: { query: FunnelQuery; breakdown: FunnelBreakdownKey }) {
  const report = useFunnelReport({ ...query, breakdown });
  if (report.isError) return <ErrorState error={report.error} retry={() => report.refetch()} />;
  if (!report.data) return <SkeletonRows rows={4} />;
  const groups = report.data.breakdown ?? [];
  if (groups.length === 0) return <p className="panel-empty">Nobody entered the funnel in this range.</p>;
  const steps = report.data.steps;
  const label = breakdown === 'visit:channel' ? 'Channel' : 'AI assistant';
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide table scrolls sideways inside its box; the keyboard must reach it
    <section className="table-scroll" aria-label={`Funnel by ${label.toLowerCase()}`} tabIndex={0}>
      <table className="breakdown-table">
        <caption className="visually-hidden">People at each step by {label.toLowerCase()}</caption>
        <thead>
          <tr>
            <th scope="col">{label}</th>
            {steps.map((step) => (
              <th scope="col" className="num" key={step.index} title={step.label}>
                Step {step.index}
              </th>
            ))}
            <th scope="col" className="num">
              Converted
            </th>
          </tr>
        </thead>
        <tbody>
          {groups.map((group) => {
            const last = group.steps.at(-1);
            return (
              <tr key={group.value ?? '∅'}>
                <th scope="row">{valueName(breakdown, group.value)}</th>
                {group.steps.map((step) => (
                  <td className="num" key={step.index}>
                    {formatCount(step.visitors)}
                  </td>
                ))}
                <td className="num">
                  {last ? `${last.conversion_from_first.toFixed(1).replace(/\.0$/, '')}%` : ''}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

export function FunnelBreakdown({ query }: { query: FunnelQuery }) {
  const [breakdown, setBreakdown] = useState<FunnelBreakdownKey>('visit:channel');
  return (
    <section className="card funnel-breakdown" aria-labelledby="funnel-breakdown">
      <div className="panel-head">
        <h2 id="funnel-breakdown">Where people came from</h2>
        <span className="spacer" />
        <Tabs
          label="Break the funnel down by"
          options={BREAKDOWNS}
          value={breakdown}
          onChange={setBreakdown}
        />
      </div>
      <BreakdownTable query={query} breakdown={breakdown} />
      <p className="muted small">
        By the visit in which each person reached step 1. “Converted” is the share who reached the last step.
      </p>
    </section>
  );
}
