/** A small line of a series, with its words for screen readers in `label`. */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  const width = 120;
  const height = 32;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values.map(
    (v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`,
  );
  return (
    <svg
      className="sparkline"
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
    >
      {values.length > 1 && (
        <>
          <polygon
            points={`0,${height} ${points.join(' ')} ${width},${height}`}
            fill="currentColor"
            opacity="0.12"
          />
          <polyline
            points={points.join(' ')}
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            vectorEffect="non-scaling-stroke"
          />
        </>
      )}
    </svg>
  );
}
