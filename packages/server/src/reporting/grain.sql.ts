/**
 * What every grain of a stats query shares: the site, the range resolved to days in a zone, the
 * dimensions and the filters. A grain is one kind of row a metric is counted over: visits,
 * pageview events, conversion events or the daily revenue rollup.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { personLinks } from '../identity/identity.sql.js';
import type { Filter } from './filters.js';
import { filterLeaves } from './filters.js';
import type { Dimension } from './stats-vocabulary.js';

export interface GrainQuery {
  siteId: string;
  /** Inclusive days in `timezone`. */
  from: string;
  to: string;
  timezone: string;
  dimensions: Dimension[];
  filters: Filter[];
}

type DayRange = Pick<GrainQuery, 'from' | 'to' | 'timezone'>;

/** The first instant of the range and the instant after it, as PostgreSQL's zone rules place them. */
export const rangeStart = (q: DayRange) => sql`(${q.from}::date::timestamp at time zone ${q.timezone})`;
export const rangeEnd = (q: DayRange) => sql`((${q.to}::date + 1)::timestamp at time zone ${q.timezone})`;

/** The `pl` join that `personSql` reads, on the visitor id column given. */
export const personJoin = (q: Pick<GrainQuery, 'siteId'>, visitorId: string) =>
  sql`left join ${personLinks(q.siteId)} pl on pl.visitor_id = ${sql.ref(visitorId)}`;

/** The dimension names a query's filters use. */
export const filteredDimensions = (q: GrainQuery) =>
  new Set(q.filters.flatMap(filterLeaves).map((leaf) => leaf.dimension as string));

export interface Instants {
  /** The first moment of `from` in the zone. */
  start: Date;
  /** The first moment of the day after `to` in the zone (exclusive). */
  end: Date;
}

/**
 * The range's instants as PostgreSQL's zone rules place them, for reports that bound a scan by
 * plain timestamps: every report reads the zone the same way, so edges agree across DST.
 */
export async function rangeInstants(db: Kysely<DB>, range: DayRange): Promise<Instants> {
  const { rows } = await sql<Instants>`
    select ${rangeStart(range)} as start, ${rangeEnd(range)} as "end"
  `.execute(db);
  const row = rows[0] as Instants;
  return { start: new Date(row.start), end: new Date(row.end) };
}
