/**
 * A visit's trail as the session detail shows it: each step's kind, page, properties and value,
 * and for a pageview the time spent on that page.
 *
 * Time on page is the time the page was open, not only engaged time: from its pageview to the
 * next pageview of the visit, and for the last page to the visit's last activity (its last
 * engagement report or browser event). The tracker's engagement reports do name their page, but
 * the ingest keeps their seconds only as the visit's total (`visits.engaged_seconds`, the
 * session's `duration_sec`), so they cannot be split per page.
 */
import { PROPERTIES_MAX_BYTES } from '../conversions/conversions.service.js';
import type { TrailRow } from './session-trail.query.js';

/** What a pageview is called where a step has a name (as GET /v1/events calls it). */
export const PAGEVIEW_NAME = 'pageview';

export type TrailStepType = 'pageview' | 'custom' | 'server' | 'payment';

const MS_PER_SECOND = 1000;

function stepTypeOf(row: TrailRow): TrailStepType {
  if (row.type === 'pageview') return 'pageview';
  if (row.is_payment) return 'payment';
  return row.origin === 'server' ? 'server' : 'custom';
}

/** `{}` when none were stored (pageviews never have any), null over the cap (interface §2.8). */
function propertiesOf(row: TrailRow): Record<string, unknown> | null {
  if (row.is_oversized) return null;
  const stored = row.properties ?? {};
  return Buffer.byteLength(JSON.stringify(stored), 'utf8') > PROPERTIES_MAX_BYTES ? null : stored;
}

function secondsOnPage(row: TrailRow, lastActivityAt: Date): number | null {
  if (row.type !== 'pageview') return null;
  const until = row.next_pageview_at === null ? lastActivityAt : new Date(row.next_pageview_at);
  return Math.max(0, Math.round((until.getTime() - new Date(row.occurred_at).getTime()) / MS_PER_SECOND));
}

export function presentTrail(
  rows: readonly TrailRow[],
  visit: { last_activity_at: Date; siteCurrency: string },
) {
  return rows.map((row) => {
    const isConversion = row.type === 'event';
    return {
      type: stepTypeOf(row),
      // As the event listing names them.
      name: row.type === 'pageview' ? PAGEVIEW_NAME : (row.name ?? ''),
      timestamp: new Date(row.occurred_at).toISOString(),
      page: row.page,
      time_on_page_sec: secondsOnPage(row, new Date(visit.last_activity_at)),
      properties: propertiesOf(row),
      value_cents: row.value_minor,
      // An event sent with a value but no currency is in the site's (ingest/batch-writer.ts).
      currency: row.value_minor === null ? null : (row.currency ?? visit.siteCurrency),
      is_conversion: isConversion,
    };
  });
}
