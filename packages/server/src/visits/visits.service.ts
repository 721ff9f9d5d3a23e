/**
 * Sessions (DESIGN.md §7: a session is a visit, its id the visit's UUID): the listing and one
 * session with its trail. Checks what the schema cannot (zone, window, filters, cursor) before
 * the site, so bad input is a 422 whoever asks; reads keep working while a deletion is scheduled.
 */
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { badInput, notFound } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { createHandleCodec } from '../people/visitor-handles.js';
import type { RatesService } from '../rates/rates.service.js';
import type { ClickHouseReads } from '../reporting/clickhouse/ch-read.js';
import { addDays, dayIn, resolveTimezone } from '../reporting/date-range.js';
import { parseFiltersText } from '../reporting/filters.js';
import type { SitesService } from '../sites/sites.service.js';
import { decodeSessionCursor, encodeSessionCursor, type SessionCursor } from './session-cursor.js';
import { findVisitPayments } from './session-payments.query.js';
import { readSession, readSessionPage } from './session-reads.js';
import { netRevenueByVisit } from './session-revenue.js';
import type { SessionRow } from './session-rows.query.js';
import { presentTrail } from './session-trail.js';
import {
  DEFAULT_LIMIT,
  DEFAULT_WINDOW_DAYS,
  MAX_WINDOW_DAYS,
  type SessionsQuery,
  TRAIL_LIMIT,
} from './visits.schemas.js';

const READ_SCHEDULED = { includeScheduled: true };
/** As many as the stats query takes in its body. */

export interface VisitsDeps {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'resolveSite'>;
  rates: Pick<RatesService, 'convertMinor'>;
  /** Seals the `vh_` handles (people/visitor-handles.ts). */
  secretKey: string;
  /** ClickHouse for the traffic, when configured (session-reads.ts). */
  clickhouse?: ClickHouseReads;
}

export function createVisitsService({ db, clock, sites, rates, secretKey, clickhouse }: VisitsDeps) {
  const codec = createHandleCodec(secretKey);
  const readers = { db, clickhouse };

  /**
   * The rows as the interface shows them: handles (from each visitor's person's first visit),
   * revenue in the site's currency.
   */
  async function presentRows(
    site: { id: string; currency: string },
    rows: SessionRow[],
    firstVisits: Map<string, string>,
  ) {
    const payments = await findVisitPayments(
      db,
      site.id,
      rows.map((row) => row.id),
    );
    const revenue = await netRevenueByVisit(rates, payments, site.currency);
    return rows.map((row) =>
      presentSession(row, {
        visitor: codec.encode({ siteId: site.id, visitId: firstVisits.get(row.visitor_id) ?? row.id }),
        netMinor: revenue.get(row.id) ?? 0,
        currency: site.currency,
      }),
    );
  }

  return {
    /** One page of sessions, newest first; an empty page, not a 404, when none match. */
    async list(principal: Principal, query: SessionsQuery) {
      const timezone = resolveTimezone(query.timezone);
      const { from, to } = resolveWindow(query, dayIn(timezone, clock.now()));
      const filters = parseFiltersText(query.filters);
      const before = query.before === undefined ? undefined : readCursor(query.before);
      const site = await sites.resolveSite(principal, query.site_id, READ_SCHEDULED);
      const limit = query.limit ?? DEFAULT_LIMIT;
      const { rows, firstVisits } = await readSessionPage(readers, {
        siteId: site.id,
        from,
        to,
        timezone,
        filters,
        converted: query.converted === undefined ? undefined : query.converted === 'true',
        before,
        limit,
      });
      const last = rows.at(-1);
      return {
        sessions: await presentRows(site, rows, firstVisits),
        next_before:
          rows.length === limit && last
            ? encodeSessionCursor({ startedAt: last.started_at_exact, id: last.id })
            : null,
      };
    },

    /** One session with its entry source and trail; another site's or an unknown id is 404. */
    async get(principal: Principal, id: string, siteRef: string) {
      const site = await sites.resolveSite(principal, siteRef, READ_SCHEDULED);
      const found = await readSession(readers, {
        siteId: site.id,
        id: id.toLowerCase(),
        trailLimit: TRAIL_LIMIT + 1,
      });
      if (!found) throw notFound('Session');
      const { row, trail, firstVisits } = found;
      const [session] = await presentRows(site, [row], firstVisits);
      return {
        ...(session as ReturnType<typeof presentSession>),
        entry: {
          channel: row.channel,
          ai_source: row.ai_source,
          source_kind: row.source_kind,
          referrer: row.referrer,
          campaign: row.campaign,
          ref: row.ref,
          url: row.entry_url,
        },
        trail: presentTrail(trail.slice(0, TRAIL_LIMIT), {
          last_activity_at: row.last_activity_at,
          siteCurrency: site.currency,
        }),
        trail_truncated: trail.length > TRAIL_LIMIT,
      };
    },
  };
}

export type VisitsService = ReturnType<typeof createVisitsService>;

function presentSession(row: SessionRow, extra: { visitor: string; netMinor: number; currency: string }) {
  return {
    id: row.id,
    visitor: extra.visitor,
    started_at: new Date(row.started_at).toISOString(),
    last_activity_at: new Date(row.last_activity_at).toISOString(),
    duration_sec: row.engaged_seconds,
    pageviews: row.pageviews,
    channel: row.channel,
    ai_source: row.ai_source,
    source_kind: row.source_kind,
    referrer: row.referrer,
    campaign: row.campaign,
    entry_page: row.entry_page,
    exit_page: row.exit_page,
    country_code: row.country_code,
    city: row.city,
    device: { device_type: row.device_type, os: row.os, browser: row.browser },
    is_new: row.is_new,
    conversions: Number(row.conversions),
    revenue: { net_cents: extra.netMinor, currency: extra.currency },
  };
}

/** Inclusive days in the zone: `to` defaults to today, `from` to the 30 days ending at `to`. */
function resolveWindow(query: Pick<SessionsQuery, 'from' | 'to'>, today: string) {
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, -(DEFAULT_WINDOW_DAYS - 1));
  if (from > to) throw badInput('from', `from (${from}) must not be after to (${to})`, 'query');
  if (addDays(from, MAX_WINDOW_DAYS) <= to) {
    throw badInput('from', `the window spans more than ${MAX_WINDOW_DAYS} days`, 'query');
  }
  return { from, to };
}

function readCursor(text: string): SessionCursor {
  const cursor = decodeSessionCursor(text);
  if (!cursor) throw badInput('before', 'before must be the next_before of an earlier page', 'query');
  return cursor;
}
