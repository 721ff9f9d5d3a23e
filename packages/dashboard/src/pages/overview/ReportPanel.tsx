/**
 * A panel of the overview: a few tabs, each one stats breakdown shown as bar rows. Clicking a
 * row adds its value as a filter of the whole view.
 */
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useStats } from '../../api/sites';
import type { StatsFilter, StatsMetric, StatsRow } from '../../api/types';
import { BarList, type BarRow } from '../../components/BarList';
import { ErrorState, SkeletonRows } from '../../components/States';
import { Tabs } from '../../components/Tabs';
import { type FilterKey, filterKeyOf, queryScope, type ViewState, withFilter } from '../../lib/view-state';

export interface PanelColumn {
  metric: StatsMetric;
  label: string;
  format: (value: number, row: StatsRow) => string;
}

export interface PanelTab {
  key: string;
  label: string;
  dimension: string;
  columns: PanelColumn[];
  /** Extra filters of this tab (the AI assistants tab keeps to the AI channel). */
  filters?: StatsFilter[];
  /** Words of a value; null values read as `nullLabel`. */
  name?: (value: string) => ReactNode;
  nullLabel?: string;
  isAi?: (value: string | null) => boolean;
  /** Drawn as a world map of the first column (the dimension holds country codes). */
  map?: boolean;
  /** The row of this value opens, without a click, into the rows of another tab (AI → its assistants). */
  expand?: { value: string; tab: PanelTab };
}

const WorldMap = lazy(() => import('../../components/WorldMap').then((m) => ({ default: m.WorldMap })));

function useTabStats(siteId: string, view: ViewState, tab: PanelTab, enabled = true) {
  const scope = queryScope(view);
  // Two columns may read one metric (a rate is worked out from a count).
  const metrics = [...new Set(tab.columns.map((c) => c.metric))];
  const stats = useStats(
    {
      site_id: siteId,
      metrics,
      dimensions: [tab.dimension],
      ...scope,
      filters: [...(scope.filters ?? []), ...(tab.filters ?? [])],
      limit: tab.map ? 300 : 10,
    },
    { enabled },
  );
  return { stats, metrics };
}

function PanelBody({ siteId, view, update, tab }: PanelProps & { tab: PanelTab }) {
  const { stats, metrics } = useTabStats(siteId, view, tab);
  const children = useTabStats(siteId, view, tab.expand?.tab ?? tab, Boolean(tab.expand));
  if (stats.isPending) return <SkeletonRows rows={5} />;
  if (stats.isError) return <ErrorState error={stats.error} retry={() => stats.refetch()} />;
  const results = stats.data.results;
  if (results.length === 0) return <p className="panel-empty">Nothing in this range yet.</p>;
  const filterKey: FilterKey | undefined = filterKeyOf(tab.dimension);
  if (tab.map && filterKey) {
    const visitors = new Map(
      results
        .filter((row) => row.dimensions[0])
        .map((row) => [row.dimensions[0] as string, row.metrics[0] ?? 0]),
    );
    return (
      <Suspense fallback={<SkeletonRows rows={5} />}>
        <WorldMap
          visitors={visitors}
          onSelect={(code) => update({ filters: withFilter(view, filterKey, code) })}
        />
      </Suspense>
    );
  }
  return (
    <BarList
      caption={tab.label}
      columns={[tab.label, ...tab.columns.map((c) => c.label)]}
      rows={results.flatMap((row) => {
        const own = barRow(row, tab, metrics, view, update);
        const expand = tab.expand;
        if (!expand || row.dimensions[0] !== expand.value || !children.stats.data) return [own];
        const rows = children.stats.data.results.map((child) =>
          barRow(child, expand.tab, children.metrics, view, update, true),
        );
        return [own, ...rows];
      })}
    />
  );
}

function barRow(
  row: StatsRow,
  tab: PanelTab,
  metrics: StatsMetric[],
  view: ViewState,
  update: PanelProps['update'],
  nested = false,
): BarRow {
  const value = row.dimensions[0] ?? null;
  const label = value === null ? (tab.nullLabel ?? '(none)') : (tab.name?.(value) ?? value);
  const ai = tab.isAi?.(value) ?? false;
  const filterKey = filterKeyOf(tab.dimension);
  return {
    key: `${tab.key}:${value ?? '∅'}`,
    name: (
      <>
        {nested ? (
          <span className="name nested">
            <span aria-hidden="true">↳ </span>
            {label}
          </span>
        ) : (
          <span className="name">{label}</span>
        )}
        {ai && !nested && <span className="badge">AI</span>}
      </>
    ),
    value: row.metrics[0] ?? 0,
    ai,
    figures: tab.columns.map((c) => c.format(row.metrics[metrics.indexOf(c.metric)] ?? 0, row)),
    ...(filterKey && value !== null
      ? {
          filterLabel: `Filter by ${typeof label === 'string' ? label : value}`,
          onSelect: () => update({ filters: withFilter(view, filterKey, value) }),
        }
      : {}),
  };
}

interface PanelProps {
  siteId: string;
  view: ViewState;
  update: (change: Partial<ViewState>) => void;
}

export function ReportPanel({ title, tabs, ...props }: PanelProps & { title: string; tabs: PanelTab[] }) {
  const [active, setActive] = useState(tabs[0]?.key ?? '');
  const tab = tabs.find((t) => t.key === active) ?? tabs[0];
  if (!tab) return null;
  return (
    <section className="card" aria-label={title}>
      <div className="panel-head">
        <h2>{title}</h2>
        <span className="spacer" />
        {tabs.length > 1 && (
          <Tabs label={`${title}: show`} options={tabs} value={tab.key} onChange={setActive} />
        )}
      </div>
      <PanelBody {...props} tab={tab} />
    </section>
  );
}
