/** Query and answers of `GET /v1/sites/{siteId}/export`; the descriptions are its documentation. */
import { z } from 'zod';
import { codedErrorSchema } from '../http/schemas.js';
import { daySchema } from '../lib/day-window.js';
import { siteParams } from '../sites/sites.schemas.js';
import { exportQueryExample } from './site-export.examples.js';
import { RECORD_KINDS } from './site-export.records.js';
import { EXPORT_DEFAULT_DAYS, EXPORT_MAX_DAYS } from './site-export.service.js';

const KINDS = RECORD_KINDS.join('|');
const RECORDS_PATTERN = new RegExp(`^(${KINDS})(,(${KINDS}))*$`);
const RECORDS_MESSAGE = `must be a comma-separated list of ${RECORD_KINDS.join(', ')}`;

export const exportParams = siteParams;

export const exportQuery = z
  .strictObject({
    from: daySchema
      .optional()
      .describe(
        `First day, YYYY-MM-DD (UTC), inclusive; default ${EXPORT_DEFAULT_DAYS - 1} days before \`to\`; at most ${EXPORT_MAX_DAYS} days in all`,
      ),
    to: daySchema.optional().describe('Last day, YYYY-MM-DD (UTC), inclusive; default today'),
    format: z
      .enum(['ndjson', 'csv'], { error: 'must be ndjson or csv' })
      .optional()
      .describe('`ndjson` (default): one JSON object per line; `csv`: one record kind with a header row'),
    records: z
      .string({ error: RECORDS_MESSAGE })
      .max(100, RECORDS_MESSAGE)
      .regex(RECORDS_PATTERN, RECORDS_MESSAGE)
      .optional()
      .describe(
        `Which records, comma-separated: ${RECORD_KINDS.join(', ')} (default all four; exactly one for csv)`,
      ),
  })
  .meta({ examples: [exportQueryExample] });

export const exportFileSchema = z
  .string()
  .describe(
    'The file, streamed (`Content-Disposition: attachment`). ndjson (`application/x-ndjson`): one object per ' +
      'line with `record` `visit`, `event` or `payment`; visits first, then events, then payments, each in time ' +
      'order. csv (`text/csv; charset=utf-8`, RFC 4180): a header row, then one row per record; event ' +
      '`properties` as JSON text, null as an empty cell. Visits are those started in the window, events those ' +
      'that occurred in it, payments those paid in it. Times are ISO-8601 UTC; payment `amount` and ' +
      '`refunded_amount` (the total refunded so far) are decimal text in major units of `currency`. No hash ' +
      'of a user id or email is exported. If reading fails after the first byte the connection is cut, so a ' +
      'file that does not end with a line break is incomplete.',
  );

export const exportErrorSchemas = {
  401: codedErrorSchema,
  403: codedErrorSchema.describe('`insufficient_scope`: the key lacks `stats:read`'),
  404: codedErrorSchema.describe(
    '`not_found`: the site is out of the credential’s reach, or inside its deletion window',
  ),
  422: codedErrorSchema.describe(
    '`validation_failed`: a bad day, `from` after `to`, a window over the limit, an unknown format, ' +
      'record kind or query parameter, or csv asked for other than one record kind',
  ),
  429: codedErrorSchema,
  503: codedErrorSchema.describe(
    '`unavailable`: with ClickHouse on, events of days PostgreSQL no longer holds and no ClickHouse to read them; retry',
  ),
};
