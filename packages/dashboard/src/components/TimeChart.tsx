/**
 * The time series of the overview, drawn by uPlot on a canvas, with the same figures in a table
 * for screen readers. The earlier period, when compared, is a dashed line; spans of imported
 * days (`marked`) are shaded behind the line and named under the chart.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartPoint {
  /** Seconds since the epoch of the bucket's start. */
  time: number;
  label: string;
  value: number;
  previous?: number;
}

/** A span of the chart to shade, in seconds since the epoch: from the first moment to the end. */
export interface MarkedSpan {
  from: number;
  to: number;
}

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

export function TimeChart({
  points,
  metricLabel,
  format,
  compare,
  hourly,
  marked = [],
  markedLabel = '',
}: {
  points: ChartPoint[];
  metricLabel: string;
  format: (value: number) => string;
  compare: boolean;
  hourly: boolean;
  marked?: MarkedSpan[];
  markedLabel?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const accent = cssVar('--accent');
    const muted = cssVar('--muted');
    const grid = cssVar('--border');
    const text = cssVar('--text');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const labels = new Map(points.map((p) => [p.time, p.label]));
    const shown = (_u: uPlot, value: number | null) => (value == null ? '' : format(value));
    const data: uPlot.AlignedData = [
      points.map((p) => p.time),
      points.map((p) => p.value),
      ...(compare ? [points.map((p) => p.previous ?? null)] : []),
    ];
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: 260,
        // The legend under the chart reads the figures at the pointer, and is hidden without one.
        legend: { show: true, live: true },
        cursor: { drag: { x: false, y: false } },
        hooks: {
          setCursor: [(u) => element.classList.toggle('pointed', u.cursor.idx != null)],
          drawClear: [(u) => shade(u, marked, muted)],
        },
        // Buckets are UTC days and hours: the axis labels them in UTC too.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        series: [
          { label: hourly ? 'Hour' : 'Period', value: (_u, time) => labels.get(time) ?? '' },
          {
            label: metricLabel,
            value: shown,
            stroke: accent,
            width: 2,
            fill: `${accent}22`,
            points: { show: points.length < 40 },
          },
          ...(compare
            ? [{ label: 'Earlier period', value: shown, stroke: muted, width: 1.5, dash: [6, 4] }]
            : []),
        ],
        axes: [
          { ...axis, values: hourly ? '{HH}:{mm}' : undefined },
          {
            ...axis,
            values: (_u, ticks) => ticks.map((t) => format(t)),
            // Wide enough for the longest label (money labels are long).
            size: (_u, values) => 24 + 7.5 * Math.max(3, ...(values ?? []).map((v) => String(v).length)),
          },
        ],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: 260 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points, metricLabel, format, compare, hourly, marked]);
  const first = points[0]?.time ?? 0;
  const last = points.at(-1)?.time ?? 0;
  const shows = marked.some((span) => span.to > first && span.from <= last);
  return (
    <figure style={{ margin: 0 }}>
      <div className="chart" ref={box} aria-hidden="true" />
      {shows && (
        <figcaption className="small muted chart-note">
          <span className="marked-swatch" aria-hidden="true" /> {markedLabel}
        </figcaption>
      )}
      <table className="visually-hidden">
        <caption>{metricLabel} over time</caption>
        <thead>
          <tr>
            <th scope="col">Period</th>
            <th scope="col">{metricLabel}</th>
            {compare && <th scope="col">Earlier period</th>}
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.time}>
              <th scope="row">{p.label}</th>
              <td>{format(p.value)}</td>
              {compare && <td>{p.previous === undefined ? '' : format(p.previous)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** Fills each span's part of the plot area, under the series. */
function shade(u: uPlot, spans: MarkedSpan[], colour: string) {
  const { ctx, bbox } = u;
  const [min, max] = [u.scales.x?.min ?? 0, u.scales.x?.max ?? 0];
  ctx.save();
  ctx.fillStyle = `${colour}26`;
  for (const span of spans) {
    const from = Math.max(span.from, min);
    const to = Math.min(span.to, max);
    if (to <= from) continue;
    const left = u.valToPos(from, 'x', true);
    const right = u.valToPos(to, 'x', true);
    ctx.fillRect(left, bbox.top, right - left, bbox.height);
  }
  ctx.restore();
}
