/** The chosen metric over the range, bucket by bucket, with the earlier period when compared. */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { IMPORT_SOURCES, importsQuery } from '../../api/imports';
import { useStats } from '../../api/sites';
import type { StatsRow } from '../../api/types';
import { ErrorState, Skeleton } from '../../components/States';
import { type ChartPoint, type MarkedSpan, TimeChart } from '../../components/TimeChart';
import { formatBucket } from '../../lib/format';
import { intervalOf, queryScope, type ViewState } from '../../lib/view-state';
import { TILE_METRICS, type TileMetric } from './metrics';

const HOUR = 3600;
const DAY = 86_400;

/** Every bucket start (UTC seconds) from the first day to the last: buckets without visits are not in the answer. */
function bucketStarts(range: readonly string[], interval: string): number[] {
  const start = Date.parse(`${range[0]}T00:00:00Z`) / 1000;
  const end = Date.parse(`${range[1]}T00:00:00Z`) / 1000 + DAY;
  const starts: number[] = [];
  if (interval === 'time:month') {
    const date = new Date(start * 1000);
    for (let d = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1); d / 1000 < end; ) {
      starts.push(d / 1000);
      const next = new Date(d);
      d = Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1);
    }
    return starts;
  }
  const step = interval === 'time:hour' ? HOUR : DAY;
  for (let t = start; t < end; t += step) starts.push(t);
  return starts;
}

const secondsOf = (bucket: string) =>
  Date.parse(`${bucket.replace(' ', 'T')}${bucket.length > 10 ? '' : 'T00:00:00'}Z`) / 1000;

function toPoints(rows: StatsRow[], range: readonly string[], interval: string): ChartPoint[] {
  const byTime = new Map(rows.map((row) => [secondsOf(row.dimensions[0] ?? ''), row]));
  return bucketStarts(range, interval).map((time) => {
    const row = byTime.get(time);
    const iso = new Date(time * 1000).toISOString().replace('T', ' ').slice(0, 19);
    return {
      time,
      label: formatBucket(iso, interval),
      value: row?.metrics[0] ?? 0,
      previous: row?.comparison?.metrics[0] ?? 0,
    };
  });
}

export function TrafficChart({
  siteId,
  view,
  metric,
  shared = false,
}: {
  siteId: string;
  view: ViewState;
  metric: TileMetric['key'];
  /** A shared view cannot list the site's imports: its imported days are not marked. */
  shared?: boolean;
}) {
  const imports = useQuery({ ...importsQuery(siteId), enabled: !shared });
  const { marked, tools } = useMemo(() => {
    const kept = (imports.data ?? []).filter((item) => item.status === 'completed' && item.date_range);
    const spans: MarkedSpan[] = kept.map((item) => ({
      from: secondsOf(item.date_range?.[0] ?? ''),
      to: secondsOf(item.date_range?.[1] ?? '') + DAY,
    }));
    const names = kept.map(
      (item) => IMPORT_SOURCES.find((s) => s.source === item.source)?.label ?? item.source,
    );
    return { marked: spans, tools: [...new Set(names)] };
  }, [imports.data]);
  const interval = intervalOf(view);
  const stats = useStats({
    site_id: siteId,
    metrics: [metric],
    dimensions: [interval],
    ...queryScope(view),
    limit: 1000,
    ...(view.compare ? { include: { comparison: 'previous_period' } } : {}),
  });
  const definition = TILE_METRICS.find((m) => m.key === metric) ?? TILE_METRICS[0];
  const points = useMemo(
    () => (stats.data ? toPoints(stats.data.results, stats.data.meta.date_range, interval) : []),
    [stats.data, interval],
  );
  if (stats.isPending) return <Skeleton height={260} />;
  if (stats.isError) return <ErrorState error={stats.error} retry={() => stats.refetch()} />;
  return (
    <TimeChart
      points={points}
      metricLabel={definition?.label ?? metric}
      format={definition?.format ?? String}
      compare={view.compare}
      hourly={interval === 'time:hour'}
      marked={marked}
      markedLabel={`Shaded: days imported from ${tools.join(' and ')}`}
    />
  );
}
