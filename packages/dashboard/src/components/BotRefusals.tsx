/**
 * The hits the ingest refused as bots in the last hour, as one line (nothing when there were none):
 * a site sent only headless or scripted hits would otherwise seem to receive nothing at all.
 */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { siteRefusalsQuery } from '../api/sites';
import { formatCountOf } from '../lib/format';

/**
 * `live`: asked for again every 3 seconds and announced as it changes (the install card, while it
 * waits); `children`: what to do about it, after the count.
 */
export function BotRefusals({
  siteId,
  live = false,
  className = 'status warn',
  children,
}: {
  siteId: string;
  live?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  const refusals = useQuery({ ...siteRefusalsQuery(siteId), refetchInterval: live ? 3000 : false });
  const bots = refusals.data?.refusals.find((r) => r.reason === 'bot')?.hits ?? 0;
  if (bots === 0) return null;
  return (
    <p className={className} role={live ? 'status' : undefined}>
      {formatCountOf(bots, 'hit')} refused as bots in the last hour (headless or automated browser).
      {children && <> {children}</>}
    </p>
  );
}
