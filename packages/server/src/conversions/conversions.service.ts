/**
 * The conversion listing (interface §2.8, §4.5): one page of conversions of a site, newest
 * first, one row per conversion whatever the model. Dashboard sessions only; the site is named
 * by its internal UUID, and a site not on the session's account is 403.
 */
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import { isDatabaseError } from '../db/errors.js';
import type { AttributionModel, DB } from '../db/types.js';
import { AppError, badInput, forbidden, unauthorized } from '../http/errors.js';
import { type Clock, DAY_MS } from '../lib/clock.js';
import { resolveDayWindow } from '../lib/day-window.js';
import { toMajorUnits } from '../lib/money.js';
import { convertMajor, RATES_STALE_AFTER_DAYS, roundToCurrency } from '../rates/exchange.js';
import { newestRateDay } from '../rates/newest-rate-day.query.js';
import type { SitesService } from '../sites/sites.service.js';
import { countByEventName, countConversions } from './conversion-counts.query.js';
import { type ConversionRow, listConversionRows } from './conversion-rows.query.js';

export const DEFAULT_PAGE_SIZE = 50;
export const DEFAULT_WINDOW_DAYS = 7;
/** `(page - 1) * page_size` may not exceed this (§8). */
export const MAX_OFFSET = 100_000;
/** A stored properties object larger than this, as compact JSON, is listed as null (§8). */
export const PROPERTIES_MAX_BYTES = 8_192;
export const DEFAULT_MODEL: AttributionModel = 'last_touch';

export interface ConversionsQuery {
  site_id: string;
  from?: string;
  to?: string;
  event_name?: string;
  source?: string;
  attribution_model?: AttributionModel;
  page?: number;
  page_size?: number;
}

function propertiesOf(stored: Record<string, unknown> | null): Record<string, unknown> | null {
  if (stored === null) return null;
  return Buffer.byteLength(JSON.stringify(stored), 'utf8') > PROPERTIES_MAX_BYTES ? null : stored;
}

function presentRow(row: ConversionRow, displayCurrency: string) {
  const hasValue = row.value_minor !== null;
  const converted = hasValue
    ? convertMajor(toMajorUnits(row.value_minor as number, row.currency), row.currency, displayCurrency, {
        from: row.from_per_euro,
        to: row.to_per_euro,
      })
    : null;
  return {
    event_id: row.event_id,
    timestamp: new Date(row.occurred_at).toISOString(),
    event_name: row.name,
    source_kind: row.source_kind ?? '',
    source_name: row.source_name ?? '',
    session_ai_source: row.session_ai_source ?? '',
    country_code: row.country_code ?? '',
    ai_source: row.credited_source,
    confidence: row.credited_share === null ? null : Number(row.credited_share.toFixed(6)),
    visitor_id_short: (row.visitor_id ?? '').slice(0, 8),
    value_cents: row.value_minor ?? 0,
    currency: row.currency,
    display_value: converted === null ? null : roundToCurrency(converted, displayCurrency),
    rate_day: converted === null || row.currency === displayCurrency ? null : row.rate_day,
    properties: propertiesOf(row.properties),
  };
}

/**
 * The counts come from the daily totals; when those cannot be read the page is still served,
 * with `total_count` null (§4.5) and no event names, rather than failing the whole listing.
 */
async function unlessUnreadable<T, F>(count: Promise<T>, fallback: F): Promise<T | F> {
  try {
    return await count;
  } catch (error) {
    if (!isDatabaseError(error)) throw error;
    return fallback;
  }
}

export function createConversionsService({
  db,
  clock,
  sites,
}: {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'resolveSite'>;
}) {
  /** The site if it is on the session's account (scheduled for deletion or not); 403 otherwise. */
  async function siteOnAccount(principal: Principal, siteId: string) {
    try {
      return await sites.resolveSite(principal, siteId, { includeScheduled: true });
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found')
        throw forbidden('The site is not on this account');
      throw error;
    }
  }

  return {
    async list(principal: Principal, query: ConversionsQuery) {
      // The route accepts sessions only; a key reaching this is refused the same way (§5.7).
      if (principal.kind !== 'session')
        throw unauthorized('The conversion listing needs a dashboard session');
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
      const offset = (page - 1) * pageSize;
      if (offset > MAX_OFFSET) {
        throw badInput(
          'page',
          `(page - 1) * page_size is ${offset}; at most ${MAX_OFFSET} is allowed`,
          'query',
        );
      }
      const window = resolveDayWindow(query, clock.now(), { defaultDays: DEFAULT_WINDOW_DAYS });
      const site = await siteOnAccount(principal, query.site_id);
      const rows = await listConversionRows(db, {
        siteId: site.id,
        siteCurrency: site.currency,
        start: window.start,
        end: window.end,
        eventName: query.event_name,
        source: query.source,
        model: query.attribution_model ?? DEFAULT_MODEL,
        limit: pageSize,
        offset,
      });
      const ratesAsOf = await unlessUnreadable(newestRateDay(db), null);
      const staleBefore = new Date(clock.now().getTime() - RATES_STALE_AFTER_DAYS * DAY_MS)
        .toISOString()
        .slice(0, 10);
      const counted = { siteId: site.id, from: window.from, to: window.to };
      return {
        conversions: rows.map((row) => presentRow(row, site.currency)),
        page,
        page_size: pageSize,
        has_more: rows.length === pageSize,
        total_count:
          query.source === undefined
            ? await unlessUnreadable(countConversions(db, { ...counted, eventName: query.event_name }), null)
            : null,
        event_names: await unlessUnreadable(countByEventName(db, counted), []),
        display_currency: site.currency,
        rates_as_of: ratesAsOf,
        rates_stale: ratesAsOf === null || ratesAsOf < staleBefore,
      };
    },
  };
}

export type ConversionsService = ReturnType<typeof createConversionsService>;
