/**
 * Rules of the people behind completions (interface §2.5, §4.1 visitors rules), of the people
 * listing (`GET /v1/visitors`, the same rows for everyone with a visit in the window) and of the
 * profile behind a `vh_` handle. Reads keep working while a site is scheduled for deletion.
 */
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { resolveReportWindow } from '../goals/goal-reports.js';
import { badInput, notFound } from '../http/errors.js';
import { personKeyOf } from '../identity/identity.js';
import type { Clock } from '../lib/clock.js';
import { type DayWindow, resolveDayWindow } from '../lib/day-window.js';
import { toMajorUnits } from '../lib/money.js';
import { convertMajor, roundToCurrency } from '../rates/exchange.js';
import { type ClickHouseReads, readClickHouse } from '../reporting/clickhouse/ch-read.js';
import { filterSql } from '../reporting/filter.sql.js';
import { type Filter, parseFiltersText } from '../reporting/filters.js';
import type { SitesService } from '../sites/sites.service.js';
import { findRefundsOfConversions } from '../visits/conversion-refunds.query.js';
import { chFindGoalPeople } from './goal-people.ch.query.js';
import { findGoalPeople } from './goal-people.query.js';
import { createPeopleCursorCodec } from './people-cursor.js';
import { chFindPeoplePage } from './people-listing.ch.query.js';
import { findPeoplePage, type PeopleSort } from './people-listing.query.js';
import {
  type PersonSummary,
  presentDevice,
  presentEntry,
  type SummaryContext,
  summarisePeople,
} from './people-summaries.js';
import { createHandleCodec } from './visitor-handles.js';
import { createLabeler } from './visitor-labels.js';
import {
  type ConversionOfPerson,
  findPersonOfVisit,
  listConversions,
  listVisits,
  type VisitRow,
} from './visitors.store.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
/** Visits and conversions listed on a profile, newest first. */
export const PROFILE_LIST_LIMIT = 100;
/** The people listing's window: the last 30 days up to today (UTC) unless asked, at most a year. */
export const PEOPLE_WINDOW = { defaultDays: 30, maxDays: 365 };

export interface GoalVisitorsInput {
  siteId: string;
  goalName: string;
  from?: string;
  to?: string;
  page?: number;
  pageSize?: number;
}

export interface PeopleListingInput {
  siteId: string;
  from?: string;
  to?: string;
  /** The JSON text of a stats filter list. */
  filters?: string;
  sort?: PeopleSort;
  limit?: number;
  before?: string;
}

export interface ProfileInput {
  siteId?: string;
  from?: string;
  to?: string;
}

export interface VisitorsDeps {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'resolveSite'>;
  secretKey: string;
  /** When set, the traffic parts of the listing and of the rows are read from ClickHouse. */
  clickhouse?: ClickHouseReads;
}

const READ_SCHEDULED = { includeScheduled: true };

function presentVisit(visit: VisitRow) {
  return {
    id: visit.id,
    started_at: visit.started_at.toISOString(),
    last_activity_at: visit.last_activity_at.toISOString(),
    pageviews: visit.pageviews,
    active_time_sec: visit.engaged_seconds,
    entry: presentEntry(visit),
    ...presentDevice(visit),
  };
}

/** A row of a list: every listed person has a visit in the window, so these are always set. */
function listedRow({ row }: PersonSummary, window: DayWindow) {
  return {
    ...row,
    handle: row.handle as string,
    first_seen: row.first_seen ?? window.start.toISOString(),
    last_seen: row.last_seen ?? window.start.toISOString(),
    latest_session_id: row.latest_session_id as string,
  };
}

export function createVisitorsService({ db, clock, sites, secretKey, clickhouse }: VisitorsDeps) {
  const codec = createHandleCodec(secretKey);
  const labelFor = createLabeler(secretKey);
  const cursors = createPeopleCursorCodec(secretKey);

  return {
    /** One page of the people who completed `goalName` in the window (empty, not 404, when none). */
    async listGoalVisitors(principal: Principal, input: GoalVisitorsInput) {
      const site = await sites.resolveSite(principal, input.siteId, READ_SCHEDULED);
      const window = resolveReportWindow(input, clock.now());
      const page = input.page ?? 1;
      const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
      const offset = (page - 1) * pageSize;
      const query = {
        goalName: input.goalName,
        start: window.start,
        end: window.end,
        limit: pageSize,
        offset,
      };
      const { people, totalCount } =
        (await readClickHouse({ db, clickhouse }, site.id, window.start, (ch, scope) =>
          chFindGoalPeople(ch, scope, query),
        )) ?? (await findGoalPeople(db, { ...query, siteId: site.id }));
      const ctx: SummaryContext = { db, clickhouse, codec, labelFor, site, window };
      const summaries = await summarisePeople(
        ctx,
        people.map((p) => p.person),
      );
      return {
        visitors: summaries.map((summary) => listedRow(summary, window)),
        goal_name: input.goalName,
        from: window.from,
        to: window.to,
        page,
        page_size: pageSize,
        has_more: offset + summaries.length < totalCount,
        total_count: totalCount,
        identity_merge_complete: summaries.every((s) => s.isComplete),
      };
    },

    /**
     * One page of everyone with a visit in the window matching the filters, as visitor rows,
     * largest sort value first; `next_before` continues after the page's last person.
     */
    async listPeople(principal: Principal, input: PeopleListingInput) {
      const filters = parseFiltersText(input.filters);
      const window = resolveDayWindow(input, clock.now(), PEOPLE_WINDOW);
      const site = await sites.resolveSite(principal, input.siteId, READ_SCHEDULED);
      const sort = input.sort ?? 'last_seen';
      const scope = { siteId: site.id, sort };
      const after = input.before === undefined ? null : cursors.decode(input.before, scope);
      if (input.before !== undefined && !after) {
        throw badInput(
          'before',
          'before must be the next_before of an earlier page of this listing, for the same site and sort',
          'query',
        );
      }
      const limit = input.limit ?? DEFAULT_PAGE_SIZE;
      // One more than the page tells whether another page follows.
      const filter: Filter = { op: 'and', filters };
      const query = { siteId: site.id, start: window.start, end: window.end, sort, after, limit: limit + 1 };
      const listed =
        (await readClickHouse({ db, clickhouse }, site.id, window.start, (ch, scope) =>
          chFindPeoplePage(ch, scope, { ...query, filter }),
        )) ??
        (await findPeoplePage(db, { ...query, currency: site.currency, visitMatches: filterSql(filter) }));
      const page = listed.slice(0, limit);
      const ctx: SummaryContext = { db, clickhouse, codec, labelFor, site, window };
      const summaries = await summarisePeople(
        ctx,
        page.map((p) => p.person),
      );
      const last = page.at(-1);
      return {
        visitors: summaries.map((summary) => listedRow(summary, window)),
        from: window.from,
        to: window.to,
        next_before:
          listed.length > limit && last
            ? cursors.encode({ value: last.sortValue, person: last.person }, scope)
            : null,
        identity_merge_complete: summaries.every((s) => s.isComplete),
      };
    },

    /** The person behind a handle; a tampered handle, or one of a site out of reach, is 404. */
    async getProfile(principal: Principal, handle: string, input: ProfileInput) {
      const subject = codec.decode(handle);
      if (!subject) throw notFound('Visitor');
      const site = await sites.resolveSite(principal, { id: subject.siteId }, READ_SCHEDULED);
      if (input.siteId !== undefined) {
        const named = await sites.resolveSite(principal, input.siteId, READ_SCHEDULED);
        if (named.id !== site.id) throw notFound('Visitor');
      }
      const window = resolveReportWindow(input, clock.now());
      const person = await findPersonOfVisit(db, site.id, subject.visitId);
      if (!person) throw notFound('Visitor');
      const [summary] = await summarisePeople({ db, clickhouse, codec, labelFor, site, window }, [person]);
      if (!summary) throw notFound('Visitor');
      const range = { siteId: site.id, start: window.start, end: window.end, limit: PROFILE_LIST_LIMIT };
      const visits = await listVisits(db, { ...range, visitorIds: summary.visitorIds });
      const conversions = await listConversions(db, {
        ...range,
        visitorIds: summary.visitorIds,
        siteCurrency: site.currency,
        personKey: personKeyOf(person),
      });
      const refunds = await findRefundsOfConversions(
        db,
        site.id,
        conversions.map((event) => event.event_id),
      );
      return {
        ...summary.row,
        handle,
        from: window.from,
        to: window.to,
        identity_merge_complete: summary.isComplete,
        visits: visits.map(presentVisit),
        conversions: conversions.map((event) => presentConversion(event, site.currency)),
        refunds: refunds.map((refund) => ({
          event_id: refund.event_id,
          refunded_at: refund.refunded_at.toISOString(),
          amount_cents: refund.amount_minor,
          currency: refund.currency,
        })),
      };
    },
  };
}

/**
 * A conversion with its value in the site's currency too, as the conversion listing shows it:
 * `display_value` in major units (null without a value or a rate), `rate_day` the day of the ECB
 * rate that converted it (null when no conversion was needed or possible).
 */
function presentConversion(event: ConversionOfPerson, siteCurrency: string) {
  const currency = event.currency ?? siteCurrency;
  const converted =
    event.value_minor === null
      ? null
      : convertMajor(toMajorUnits(event.value_minor, currency), currency, siteCurrency, {
          from: event.from_per_euro === null ? null : Number(event.from_per_euro),
          to: event.to_per_euro === null ? null : Number(event.to_per_euro),
        });
  return {
    event_id: event.event_id,
    name: event.name ?? '',
    occurred_at: event.occurred_at.toISOString(),
    value_cents: event.value_minor,
    currency: event.currency,
    display_value: converted === null ? null : roundToCurrency(converted, siteCurrency),
    rate_day: converted === null || currency === siteCurrency ? null : event.rate_day,
  };
}

export type VisitorsService = ReturnType<typeof createVisitorsService>;
