/**
 * `GET /v1/events` and `GET /v1/events/names`: checks what the schema cannot (zone, window,
 * filters, source, cursor, handle), resolves the site (reads keep working while a deletion is
 * scheduled), and shapes the rows: names for pageviews, page paths, handles, properties.
 */
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import { PROPERTIES_MAX_BYTES } from '../conversions/conversions.service.js';
import type { DB } from '../db/types.js';
import { badInput } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { createHandleCodec } from '../people/visitor-handles.js';
import type { RatesService } from '../rates/rates.service.js';
import { type ClickHouseReads, readClickHouse } from '../reporting/clickhouse/ch-read.js';
import { resolveTimezone } from '../reporting/date-range.js';
import { filterSql } from '../reporting/filter.sql.js';
import { type Filter, filterLeaves, parseFiltersText } from '../reporting/filters.js';
import { rangeInstants } from '../reporting/grain.sql.js';
import { isVisitDimension } from '../reporting/stats-vocabulary.js';
import type { SitesService } from '../sites/sites.service.js';
import { AI_ASSISTANTS } from '../sources/sources.data.js';
import { chCountEventNames } from './clickhouse/ch-event-names.query.js';
import { chListEventRows } from './clickhouse/ch-event-rows.query.js';
import { decodeCursor, encodeCursor } from './event-cursor.js';
import { countEventNames } from './event-names.query.js';
import { handlesOf, personOfHandle, senderKey } from './event-people.js';
import { type EventRow, listEventRows } from './event-rows.query.js';
import { PAGEVIEW_NAME } from './event-types.js';
import { resolveEventWindow } from './event-window.js';
import { CHANNELS, DEFAULT_LIMIT, type EventNamesQuery, type EventsQuery } from './events.schemas.js';

const READ_SCHEDULED = { includeScheduled: true };
const ASSISTANTS: ReadonlySet<string> = new Set(AI_ASSISTANTS.map((assistant) => assistant.label));

export function createEventsService({
  db,
  clock,
  sites,
  secretKey,
  clickhouse,
}: {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'resolveSite'>;
  rates: RatesService;
  secretKey: string;
  /** ClickHouse for the traffic this report reads, when CLICKHOUSE_URL is set. */
  clickhouse?: ClickHouseReads;
}) {
  const codec = createHandleCodec(secretKey);
  const readers = { db, clickhouse };

  return {
    /** One page of events, newest first; an empty page, not a 404, when nothing matches. */
    async list(principal: Principal, query: EventsQuery) {
      const timezone = resolveTimezone(query.timezone);
      const window = resolveEventWindow(query, timezone, clock.now());
      const visitFilters = [...sourceFilters(query.source), ...readFilters(query.filters)];
      const before = query.before === undefined ? undefined : decodeCursor(query.before);
      if (query.visitor !== undefined && codec.decode(query.visitor) === null) {
        throw badInput('visitor', 'visitor must be a vh_ handle from a listing of this server', 'query');
      }
      const site = await sites.resolveSite(principal, query.site_id, READ_SCHEDULED);
      const instants = await rangeInstants(db, window);
      const limit = query.limit ?? DEFAULT_LIMIT;
      const person =
        query.visitor === undefined ? undefined : await personOfHandle(db, codec, site.id, query.visitor);
      if (person === null) return { events: [], next_before: null };
      const page = {
        siteId: site.id,
        ...instants,
        type: query.type,
        name: query.name,
        visitId: query.session,
        person,
        before,
        limit,
      };
      const rows =
        (await readClickHouse(readers, site.id, instants.start, (ch, scope) =>
          chListEventRows(ch, scope, db, { ...page, visitFilters }),
        )) ??
        (await listEventRows(db, {
          ...page,
          visitCondition: visitFilters.length ? filterSql({ op: 'and', filters: visitFilters }) : undefined,
        }));
      const handles = await handlesOf(db, codec, site.id, rows);
      const last = rows.at(-1);
      return {
        events: rows.map((row) => presentEvent(row, handles.get(senderKey(row)) ?? null)),
        next_before:
          rows.length === limit && last ? encodeCursor({ at: last.cursor_at, eventId: last.event_id }) : null,
      };
    },

    /** Custom, server and payment event names in the window with their counts. */
    async names(principal: Principal, query: EventNamesQuery) {
      const timezone = resolveTimezone(query.timezone);
      const window = resolveEventWindow(query, timezone, clock.now());
      const site = await sites.resolveSite(principal, query.site_id, READ_SCHEDULED);
      const instants = await rangeInstants(db, window);
      const q = { siteId: site.id, ...instants, type: query.type };
      const names =
        (await readClickHouse(readers, site.id, instants.start, (ch, scope) =>
          chCountEventNames(ch, scope, q),
        )) ?? (await countEventNames(db, q));
      return { names };
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;

/** `source` as a stats filter: a channel, or an assistant within the AI channel. */
function sourceFilters(source: string | undefined): Filter[] {
  if (source === undefined) return [];
  if ((CHANNELS as readonly string[]).includes(source)) {
    return [{ op: 'is', dimension: 'visit:channel', values: [source] }];
  }
  if (ASSISTANTS.has(source)) return [{ op: 'is', dimension: 'visit:ai_source', values: [source] }];
  throw badInput(
    'source',
    `source must be a channel (${CHANNELS.join(', ')}) or an AI assistant such as chatgpt`,
    'query',
  );
}

/** The `filters` parameter: JSON text of the stats filter list. */
function readFilters(text: string | undefined): Filter[] {
  const filters = parseFiltersText(text);
  // Filters here judge the session; what the event itself is comes from name, type and visitor.
  filters.forEach((filter, i) => {
    if (filterLeaves(filter).some((leaf) => !isVisitDimension(leaf.dimension))) {
      throw badInput(`filters.${i}`, `filters.${i}: only visit: dimensions filter events`, 'query');
    }
  });
  return filters;
}

function presentEvent(row: EventRow, visitor: string | null) {
  return {
    event_id: row.event_id,
    type: row.type,
    name: row.type === 'pageview' ? PAGEVIEW_NAME : (row.name ?? ''),
    timestamp: row.occurred_at.toISOString(),
    session_id: row.visit_id,
    visitor,
    page: row.path,
    properties: propertiesOf(row),
    value_cents: row.value_minor,
    currency: row.value_minor === null ? null : row.currency,
    source: row.channel === null ? null : { channel: row.channel, ai_source: row.ai_source },
  };
}

/** `{}` when none were sent; null over the limit of the conversion listing (interface §2.8). */
function propertiesOf(row: EventRow): Record<string, unknown> | null {
  if (row.properties_withheld) return null;
  if (row.properties === null) return {};
  return Buffer.byteLength(JSON.stringify(row.properties), 'utf8') > PROPERTIES_MAX_BYTES
    ? null
    : row.properties;
}
