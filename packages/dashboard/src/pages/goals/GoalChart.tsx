/** A goal's completions per UTC day; days without any are not in the answer and read as zero. */
import { useMemo } from 'react';
import { type Days, type GoalSeries, useGoalSeries } from '../../api/goals';
import { ErrorState, Skeleton } from '../../components/States';
import { type ChartPoint, TimeChart } from '../../components/TimeChart';
import { formatCount, formatDay } from '../../lib/format';

const DAY_SECONDS = 86_400;

function dailyPoints(answer: GoalSeries, name: string): ChartPoint[] {
  const series = answer.series.find((s) => s.goal_name === name);
  const byDay = new Map((series?.points ?? []).map((p) => [p.date, p.completions]));
  const points: ChartPoint[] = [];
  const end = Date.parse(`${answer.to}T00:00:00Z`) / 1000;
  for (let time = Date.parse(`${answer.from}T00:00:00Z`) / 1000; time <= end; time += DAY_SECONDS) {
    const day = new Date(time * 1000).toISOString().slice(0, 10);
    points.push({ time, label: formatDay(day), value: byDay.get(day) ?? 0 });
  }
  return points;
}

export function GoalChart({ siteId, name, days }: { siteId: string; name: string; days: Days | undefined }) {
  const series = useGoalSeries(siteId, days);
  const points = useMemo(() => (series.data ? dailyPoints(series.data, name) : []), [series.data, name]);
  if (series.isError) return <ErrorState error={series.error} retry={() => series.refetch()} />;
  if (!series.data) return <Skeleton height={260} />;
  return (
    <TimeChart
      points={points}
      metricLabel="Completions"
      format={formatCount}
      compare={false}
      hourly={false}
    />
  );
}
