import { useRealtime } from '../../api/sites';

/** Visitors on the site in the last five minutes, asked again every 30 seconds. */
export function RealtimeVisitors({ siteId }: { siteId: string }) {
  const realtime = useRealtime(siteId);
  if (!realtime.data) return null;
  const count = realtime.data.visitors;
  return (
    <span className="realtime" role="status">
      <span className="live-dot" aria-hidden="true" />
      {count} {count === 1 ? 'visitor' : 'visitors'} now
    </span>
  );
}
