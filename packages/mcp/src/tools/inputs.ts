/**
 * Input pieces several tools share. The closed lists of values come from the client, which checks
 * them against the generated API types both ways.
 */
import {
  ATTRIBUTION_MODELS,
  type BodyOf,
  DATE_RANGE_KEYWORDS,
  FUNNEL_BREAKDOWNS,
  type QueryOf,
  type StatsQueryBody,
} from '@touchtrail/client';
import { z } from 'zod';

export { ATTRIBUTION_MODELS, type BodyOf, DATE_RANGE_KEYWORDS, FUNNEL_BREAKDOWNS, type QueryOf };
export type StatsBody = StatsQueryBody;

export const siteId = z
  .string()
  .regex(/^ttid_[0-9A-Za-z]{22}$/, 'must be a snippet key: ttid_ and 22 letters or digits')
  .describe('The site’s snippet key (ttid_…), as list_sites shows it');

export const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day, YYYY-MM-DD');

export const timezone = z
  .string()
  .max(64)
  .optional()
  .describe('IANA time zone the days are read in; default UTC');

export const attributionModel = z
  .enum(ATTRIBUTION_MODELS)
  .optional()
  .describe(
    'How credit for conversions and revenue is shared among a person’s visits; default the site’s setting',
  );

/** The stats query's filter list, e.g. `[["is","visit:channel",["ai"]]]`. */
export const filters = z
  .array(z.unknown())
  .max(50)
  .optional()
  .describe(
    'Filters on the visit, all must hold: `[operator, dimension, values]` with operator `is`, `is_not`, ' +
      '`contains` or `matches` (`*` wildcard), e.g. [["is","visit:channel",["ai"]]] or ' +
      '[["is","visit:ai_source",["chatgpt"]]]; groups `["and",[…]]`, `["or",[…]]`, `["not",f]`',
  );

/** The query string's spelling of a boolean. */
export const queryFlag = (value: boolean | undefined) =>
  value === undefined ? undefined : value ? ('true' as const) : ('false' as const);

/** A filter list as the query string carries it: JSON text. */
export const filterText = (value: unknown[] | undefined) =>
  value === undefined ? undefined : JSON.stringify(value);
