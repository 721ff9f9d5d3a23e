/**
 * Site export: one site's raw visits, events and payments of a window of UTC days,
 * for moving the data elsewhere. The input is checked and the site resolved before anything is
 * read; the rows then come as text chunks, one keyset page at a time, so an export of any size
 * holds one page in memory. Pages are separate queries: rows written while an export runs may
 * or may not be in it.
 */
import { domainToASCII } from 'node:url';
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import { pgHoldsFrom } from '../clickhouse/ship-batches.query.js';
import type { DB } from '../db/types.js';
import { AppError, badInput } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { type DayWindow, resolveDayWindow } from '../lib/day-window.js';
import {
  type ClickHouseReads,
  type Readers,
  readClickHouse,
  requireWholeInPostgres,
} from '../reporting/clickhouse/ch-read.js';
import type { SitesService } from '../sites/sites.service.js';
import { chEventsPage } from './ch-events-page.query.js';
import { csvRow, type ExportFormat, ndjsonLine } from './site-export.encode.js';
import {
  eventsPage,
  importedDayCursorId,
  importedDaysPage,
  type PageCursor,
  type PageRequest,
  paymentsPage,
  visitsPage,
} from './site-export.query.js';
import {
  eventFields,
  FIELDS,
  type FieldValue,
  importedDayFields,
  paymentFields,
  RECORD_KINDS,
  RECORD_NAMES,
  type RecordKind,
  visitFields,
} from './site-export.records.js';

export const EXPORT_DEFAULT_DAYS = 30;
/** About ten years: far past any retention, so one request can take everything a site holds. */
export const EXPORT_MAX_DAYS = 3660;
/** Rows per query: large enough that the round trips do not dominate, small enough to hold. */
export const EXPORT_PAGE_ROWS = 2000;

export interface ExportQuery {
  from?: string;
  to?: string;
  format?: ExportFormat;
  /** Comma-separated record kinds (the schema checks each); all four when absent. */
  records?: string;
}

export interface SiteExport {
  format: ExportFormat;
  fileName: string;
  window: DayWindow;
  /** The file's text in order, one chunk per page; reads the database as it is pulled. */
  chunks: AsyncGenerator<string>;
}

interface Page {
  records: Record<string, FieldValue>[];
  /** Where the next page starts; null after the last page. */
  next: PageCursor | null;
}

type PageReader = (db: Kysely<DB>, request: PageRequest) => Promise<Page>;

function pageReader<Row extends { cursor_at: string }>(
  read: (db: Kysely<DB>, request: PageRequest) => Promise<Row[]>,
  fields: (row: Row) => Record<string, FieldValue>,
  idOf: (row: Row) => string,
): PageReader {
  return async (db, request) => {
    const rows = await read(db, request);
    const last = rows.at(-1);
    const isLast = !last || rows.length < request.limit;
    return { records: rows.map(fields), next: isLast ? null : { at: last.cursor_at, id: idOf(last) } };
  };
}

/**
 * Events from ClickHouse, for a window that starts before what PostgreSQL still holds: 503
 * `unavailable` (readClickHouse) for a page ClickHouse cannot read.
 */
const clickHouseEvents =
  (readers: Readers): PageReader =>
  async (db, request) => {
    const page = await readClickHouse(readers, request.siteId, request.start, (ch, scope) =>
      chEventsPage(ch, scope, db, request),
    );
    // Never null here: over a window PostgreSQL does not hold whole, readClickHouse answers or refuses.
    if (!page) throw new AppError(503, 'unavailable', 'ClickHouse could not answer; retry');
    return { records: page.rows.map(eventFields), next: page.next };
  };

const READERS: Record<RecordKind, PageReader> = {
  visits: pageReader(visitsPage, visitFields, (row) => row.id),
  events: pageReader(eventsPage, eventFields, (row) => row.event_id),
  payments: pageReader(paymentsPage, paymentFields, (row) => row.id),
  imported_days: pageReader(importedDaysPage, importedDayFields, importedDayCursorId),
};

/** The kinds asked for, in export order; a csv file holds exactly one. */
function chosenKinds(format: ExportFormat, records: string | undefined): RecordKind[] {
  const named = records === undefined ? RECORD_KINDS : records.split(',');
  const kinds = RECORD_KINDS.filter((kind) => named.includes(kind));
  if (format === 'csv' && kinds.length !== 1) {
    throw badInput(
      'records',
      'A csv export holds one record kind: pick one with records=visits, records=events, records=payments or records=imported_days',
      'query',
    );
  }
  return kinds;
}

function fileNameOf(domain: string, window: DayWindow, format: ExportFormat, kinds: RecordKind[]) {
  const host = domainToASCII(domain).replace(/[^a-z0-9.-]/gi, '-') || 'site';
  const kind = format === 'csv' ? `-${kinds.join('-')}` : '';
  return `touchtrail-${host}${kind}-${window.from}-${window.to}.${format}`;
}

function encodePage(format: ExportFormat, kind: RecordKind, records: Record<string, FieldValue>[]) {
  if (format === 'ndjson') return records.map((fields) => ndjsonLine(RECORD_NAMES[kind], fields)).join('');
  return records.map((fields) => csvRow(FIELDS[kind].map((name) => fields[name] ?? null))).join('');
}

interface ExportPlan {
  siteId: string;
  window: DayWindow;
  format: ExportFormat;
  kinds: RecordKind[];
  readers: Record<RecordKind, PageReader>;
}

async function* exportChunks(db: Kysely<DB>, plan: ExportPlan): AsyncGenerator<string> {
  const { siteId, window, format } = plan;
  for (const kind of plan.kinds) {
    if (format === 'csv') yield csvRow(FIELDS[kind]);
    let after: PageCursor | null = null;
    do {
      const request: PageRequest = {
        siteId,
        start: window.start,
        end: window.end,
        after,
        limit: EXPORT_PAGE_ROWS,
      };
      const page = await plan.readers[kind](db, request);
      if (page.records.length > 0) yield encodePage(format, kind, page.records);
      after = page.next;
    } while (after !== null);
  }
}

export function createSiteExportService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'resolveSite'>;
  clickhouse?: ClickHouseReads;
}) {
  const { db, clock, sites, clickhouse } = deps;

  /** PostgreSQL's readers, with ClickHouse's for events once PostgreSQL no longer holds the window. */
  async function readersFor(window: DayWindow, kinds: RecordKind[]) {
    const holdsFrom = kinds.includes('events') ? await pgHoldsFrom(db) : null;
    if (!holdsFrom || window.start >= holdsFrom) return READERS;
    // Refused before the file starts when no ClickHouse can answer.
    if (!clickhouse) await requireWholeInPostgres(db, window.start);
    return { ...READERS, events: clickHouseEvents({ db, clickhouse }) };
  }

  return {
    /**
     * Checks the query and the caller's reach (a 422 or 404 from here has not read a row) and
     * returns the export, whose chunks read the rows only as they are pulled.
     */
    async open(principal: Principal, siteRef: string, query: ExportQuery): Promise<SiteExport> {
      const format = query.format ?? 'ndjson';
      const kinds = chosenKinds(format, query.records);
      const window = resolveDayWindow(query, clock.now(), {
        defaultDays: EXPORT_DEFAULT_DAYS,
        maxDays: EXPORT_MAX_DAYS,
      });
      const site = await sites.resolveSite(principal, siteRef, { includeScheduled: false });
      const readers = await readersFor(window, kinds);
      return {
        format,
        window,
        fileName: fileNameOf(site.domain, window, format, kinds),
        chunks: exportChunks(db, { siteId: site.id, window, format, kinds, readers }),
      };
    },
  };
}

export type SiteExportService = ReturnType<typeof createSiteExportService>;
