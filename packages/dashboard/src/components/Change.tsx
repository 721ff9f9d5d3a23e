import { formatChange } from '../lib/format';

/**
 * A metric's change against the earlier period. Shares change in percentage points (`points`);
 * for bounce rate a fall is the good direction.
 */
export function Change({
  change,
  lowerIsBetter = false,
  points = false,
}: {
  change: number | null | undefined;
  lowerIsBetter?: boolean;
  points?: boolean;
}) {
  if (change === undefined) return null;
  const direction = change === null || change === 0 ? 'flat' : change > 0 ? 'up' : 'down';
  const good = direction === 'flat' ? 'flat' : (direction === 'up') !== lowerIsBetter ? 'up' : 'down';
  const text = points && change !== null ? formatChange(change).replace('%', ' pts') : formatChange(change);
  return (
    <span className={`change ${good}`}>
      <span aria-hidden="true">{direction === 'up' ? '↑' : direction === 'down' ? '↓' : ''}</span>
      {text}
      <span className="visually-hidden">
        {change === null ? ' (nothing in the earlier period)' : ' against the earlier period'}
      </span>
    </span>
  );
}
