/**
 * What every grain of a stats query shares: the site, the range resolved to days in a zone, the
 * dimensions and the filters. A grain is one kind of row a metric is counted over: visits,
 * pageview events, conversion events or the daily revenue rollup.
 */
import { sql } from 'kysely';
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

export const rangeStart = (q: GrainQuery) => sql`(${q.from}::date::timestamp at time zone ${q.timezone})`;
export const rangeEnd = (q: GrainQuery) => sql`((${q.to}::date + 1)::timestamp at time zone ${q.timezone})`;

/** The `pl` join that `personSql` reads, on the visitor id column given. */
export const personJoin = (q: GrainQuery, visitorId: string) =>
  sql`left join ${personLinks(q.siteId)} pl on pl.visitor_id = ${sql.ref(visitorId)}`;

/** The dimension names a query's filters use. */
export const filteredDimensions = (q: GrainQuery) =>
  new Set(q.filters.flatMap(filterLeaves).map((leaf) => leaf.dimension as string));
