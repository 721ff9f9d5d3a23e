/** Parameters and answers of `/v1/sites/{siteId}/imports`; the descriptions are its documentation. */
import { z } from 'zod';
import { siteParams } from '../sites/sites.schemas.js';
import { IMPORT_SOURCES } from './import-records.js';

export const importsParams = siteParams;

export const importParams = siteParams.extend({
  importId: z.string().max(100).describe('The import’s id'),
});

export const uploadQuery = z.strictObject({
  source: z
    .enum(IMPORT_SOURCES, { error: `must be one of ${IMPORT_SOURCES.join(', ')}` })
    .describe(
      'The tool the file comes from: `plausible` (the ZIP of its “Export data”), `umami` (a CSV of its ' +
        '`website_event` rows with their session columns), `ga4` (NDJSON of the BigQuery export’s `events_*` ' +
        'tables), `matomo` (the CSV of `Live.getLastVisitsDetails`)',
    ),
});

const importExample = {
  id: '0b6c6c1e-2f4e-4d8a-9a51-1f0f0d5b8e21',
  source: 'plausible',
  status: 'completed',
  progress: { bytes_read: 48213, bytes_total: 48213, rows_read: 1904, rows_refused: 0 },
  date_range: ['2025-01-01', '2025-12-31'],
  kept_before: '2026-01-05',
  error: null,
  created_at: '2026-01-05T09:12:44.000Z',
  finished_at: '2026-01-05T09:12:47.000Z',
} as const;

export const importSchema = z
  .object({
    id: z.string(),
    source: z.enum(IMPORT_SOURCES),
    status: z
      .enum(['pending', 'running', 'completed', 'failed', 'cancelled'])
      .describe('`pending` until a worker takes it, `running`, then `completed`, `failed` or `cancelled`'),
    progress: z.object({
      bytes_read: z.number().int().describe('How far the file has been read'),
      bytes_total: z.number().int().describe('The file’s size'),
      rows_read: z.number().int().describe('Data rows read so far'),
      rows_refused: z.number().int().describe('Rows left out: events of a kind not imported'),
    }),
    date_range: z
      .tuple([z.string(), z.string()])
      .nullable()
      .describe(
        'The first and last UTC day the completed import holds; null before it completes or when it kept none',
      ),
    kept_before: z
      .string()
      .nullable()
      .describe(
        'The site’s first day of its own traffic when the import completed: imported days from it on were ' +
          'left out, as were days another completed import holds. Null when the site had no traffic of its own',
      ),
    error: z
      .object({
        line: z
          .number()
          .int()
          .nullable()
          .describe('The line of the file at fault (of the named part, in a ZIP)'),
        message: z.string(),
      })
      .nullable()
      .describe('Why a `failed` import failed; nothing of it was kept'),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ examples: [importExample] });

export const importAnswer = z
  .object({ import: importSchema })
  .meta({ examples: [{ import: importExample }] });
export const importList = z
  .object({ imports: z.array(importSchema) })
  .meta({ description: 'The site’s imports, newest first', examples: [{ imports: [importExample] }] });
