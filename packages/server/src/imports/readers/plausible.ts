/**
 * Plausible: the ZIP its "Export data" writes, one CSV with a header line per table
 * (`imported_visitors.csv`, or with the export's days: `imported_visitors_20240101_20241231.csv`).
 * Each holds daily counts; visit durations are sums of seconds. Sources keep Plausible's referrer
 * and tags, which our own rules classify; devices, browsers and systems take our names. Files
 * the export does not name are skipped.
 */
import type { DayCounts } from '../../db/import-types.js';
import { browserName, countryCode, deviceName, osName, pagePath } from '../device-names.js';
import { ImportFileError, type ImportRecord, type SourceReader } from '../import-records.js';
import { channelOf, createSourceClassifier } from '../imported-source.js';
import { type CsvRow, count, csvRows, day } from './csv-rows.js';
import { zipEntries } from './zip-entries.js';

const TABLE_FILE = /^(?:.*\/)?imported_([a-z_]+?)(?:_\d{8}_\d{8})?\.csv$/;

type Counts = Omit<DayCounts, 'day' | 'dimension' | 'value'>;
type TableReader = (row: CsvRow, where: string) => DayCounts[];

/** The usual visit columns of a table: visits under `visitsColumn`. */
const visitCounts = (row: CsvRow, where: string, visitsColumn = 'visits'): Counts => ({
  visitors: count(row, 'visitors', where),
  visits: count(row, visitsColumn, where),
  pageviews: count(row, 'pageviews', where),
  bounces: count(row, 'bounces', where),
  duration_seconds: count(row, 'visit_duration', where),
  events: 0,
});

const one =
  (dimension: string, column: string, name: (raw: string) => string, visitsColumn = 'visits'): TableReader =>
  (row, where) => [
    {
      day: day(row, 'date', where),
      dimension,
      value: name(row.fields[column] ?? ''),
      ...visitCounts(row, where, visitsColumn),
    },
  ];

const kept = (raw: string) => raw.trim().slice(0, 500);

/** Each table's required columns and how a row becomes daily counts. */
function tables(siteDomain: string): Record<string, { required: string[]; read: TableReader }> {
  const classify = createSourceClassifier(siteDomain);
  const visitColumns = ['date', 'visitors', 'visits', 'pageviews', 'bounces', 'visit_duration'];
  return {
    visitors: {
      required: visitColumns,
      read: (row, where) => [
        { day: day(row, 'date', where), dimension: '', value: '', ...visitCounts(row, where) },
      ],
    },
    sources: {
      required: [...visitColumns, 'source', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign'],
      read: (row, where) => {
        const f = row.fields;
        const tag = (column: string) => (f[column] ?? '').trim().slice(0, 200);
        const utm = {
          utm_source: tag('utm_source').toLowerCase(),
          utm_medium: tag('utm_medium').toLowerCase(),
          utm_campaign: tag('utm_campaign'),
          utm_content: tag('utm_content'),
          utm_term: tag('utm_term'),
        };
        // Plausible names a source it found by `ref` or `source` tags in `source` alone.
        const referrer = tag('referrer');
        const byTag = referrer || utm.utm_source ? utm : { ...utm, utm_source: tag('source').toLowerCase() };
        const source = classify(referrer, byTag) ?? {
          source_kind: 'unknown',
          session_ai_source: 'direct',
          source_name: '',
        };
        const at = { day: day(row, 'date', where), ...visitCounts(row, where) };
        return [
          { ...at, dimension: 'visit:channel', value: channelOf(source) },
          {
            ...at,
            dimension: 'visit:ai_source',
            value: source.source_kind === 'ai' ? source.session_ai_source : '',
          },
          { ...at, dimension: 'visit:referrer', value: source.source_name },
          ...(['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'] as const).map(
            (name) => ({
              ...at,
              dimension: `visit:${name}`,
              value: utm[name],
            }),
          ),
        ];
      },
    },
    pages: {
      required: ['date', 'page', 'visitors', 'visits', 'pageviews'],
      read: (row, where) => [
        {
          day: day(row, 'date', where),
          dimension: 'event:page',
          value: pagePath(row.fields.page ?? ''),
          visitors: count(row, 'visitors', where),
          visits: count(row, 'visits', where),
          pageviews: count(row, 'pageviews', where),
          bounces: 0,
          duration_seconds: 0,
          events: 0,
        },
      ],
    },
    entry_pages: {
      required: ['date', 'entry_page', 'visitors', 'entrances', 'pageviews', 'bounces', 'visit_duration'],
      read: one('visit:entry_page', 'entry_page', pagePath, 'entrances'),
    },
    exit_pages: {
      required: ['date', 'exit_page', 'visitors', 'exits', 'pageviews', 'bounces', 'visit_duration'],
      read: one('visit:exit_page', 'exit_page', pagePath, 'exits'),
    },
    custom_events: {
      required: ['date', 'name', 'visitors', 'events'],
      read: (row, where) => [
        {
          day: day(row, 'date', where),
          dimension: 'event:goal',
          value: kept(row.fields.name ?? '').slice(0, 200),
          visitors: count(row, 'visitors', where),
          visits: 0,
          pageviews: 0,
          bounces: 0,
          duration_seconds: 0,
          events: count(row, 'events', where),
        },
      ],
    },
    locations: { required: [...visitColumns, 'country'], read: one('visit:country', 'country', countryCode) },
    devices: { required: [...visitColumns, 'device'], read: one('visit:device', 'device', deviceName) },
    browsers: { required: [...visitColumns, 'browser'], read: one('visit:browser', 'browser', browserName) },
    operating_systems: {
      required: [...visitColumns, 'operating_system'],
      read: one('visit:os', 'operating_system', osName),
    },
  };
}

export const readPlausible: SourceReader = async function* (file, context): AsyncGenerator<ImportRecord> {
  const known = tables(context.siteDomain);
  let found = 0;
  for await (const entry of zipEntries(file)) {
    const table = TABLE_FILE.exec(entry.name)?.[1];
    const reader = table === undefined ? undefined : known[table];
    if (!reader) continue;
    found += 1;
    const name = entry.name.replace(/^.*\//, '');
    const where = `${name}: `;
    for await (const row of csvRows(await entry.open(), { required: reader.required, name })) {
      yield { kind: 'days', rows: reader.read(row, where) };
    }
  }
  if (found === 0) {
    throw new ImportFileError(
      null,
      'the ZIP archive holds none of the imported_*.csv files of a Plausible export',
    );
  }
};
