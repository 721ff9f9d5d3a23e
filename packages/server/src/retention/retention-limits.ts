/**
 * How long raw rows are kept (README, "How long data is kept"; interface §8 has the maximums).
 * A site may choose shorter, never longer: the job applies the defaults where it has not.
 */
import { DAY_MS } from '../lib/clock.js';

/** Conversion records (events of type 'event') with their properties, by default. */
export const CONVERSION_RETENTION_DAYS = 365;
/** Raw crawler hits; their daily rollups stay. */
export const CRAWLER_HIT_RETENTION_DAYS = 90;
/**
 * Processor event ids are kept this long to recognise replays: processors retry for days, not
 * months (Stripe three days, Paddle and Polar less).
 */
export const PROCESSOR_EVENT_RETENTION_DAYS = 90;

/** A site's own setting: at least a month, so that every day's rollups are built first. */
export const MIN_RETENTION_DAYS = 30;
/** Raw events of every type, when the site sets it. */
export const MAX_EVENTS_RETENTION_DAYS = CONVERSION_RETENTION_DAYS;
/** Visits, visitor-grain rows (interface §8); without a setting they are kept. */
export const MAX_VISITS_RETENTION_DAYS = 730;

/**
 * The first UTC day none of whose raw rows a purge of this site can have taken yet (the day
 * after the one the oldest cutoff falls on). The rollup job must not build a day before it
 * again, after an identity link made later: built from what is left, it would lose figures.
 * `pgHoldsFrom`: with ClickHouse on, the moment before which copied pageviews may have left
 * PostgreSQL (retention/copied-traffic-purge.ts), which bounds it the same way.
 */
export function firstWholeRawDay(
  site: { events_retention_days: number | null; visits_retention_days: number | null },
  now: Date,
  pgHoldsFrom: Date | null = null,
): string {
  const days = Math.min(
    site.events_retention_days ?? CONVERSION_RETENTION_DAYS,
    site.visits_retention_days ?? Number.POSITIVE_INFINITY,
  );
  const bySite = new Date(now.getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  if (!pgHoldsFrom) return bySite;
  const byCopies = new Date(pgHoldsFrom.getTime() + DAY_MS).toISOString().slice(0, 10);
  return byCopies > bySite ? byCopies : bySite;
}
