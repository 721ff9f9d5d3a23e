/**
 * Umami: a CSV of its `website_event` rows with their session columns, as Umami's data export
 * writes them (header names as in its `website_event` table: `session_id`, `created_at` in UTC,
 * `url_path`, `url_query`, `referrer_domain`, `referrer_path`, `event_type` 1 for a pageview and 2
 * for a custom event, `event_name`, `browser`, `os`, `device`, `country`, and the `utm_*` columns
 * where the version has them). A person is Umami's `distinct_id` when set, else its session.
 */
import { browserName, countryCode, deviceName, osName, pagePath } from '../device-names.js';
import { ImportFileError, type ImportRecord, type SourceReader, type Utm } from '../import-records.js';
import { type CsvRow, csvRows } from './csv-rows.js';

const REQUIRED = ['session_id', 'created_at', 'url_path', 'event_type'] as const;
const UTM_COLUMNS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'] as const;

export const readUmami: SourceReader = async function* (file) {
  for await (const row of csvRows(file.stream(), { required: REQUIRED })) yield umamiRecord(row);
};

function umamiRecord(row: CsvRow): ImportRecord {
  const f = row.fields;
  const type = (f.event_type ?? '').trim();
  const sessionKey = (f.session_id ?? '').trim();
  if (!sessionKey) throw new ImportFileError(row.line, 'session_id is empty');
  const at = umamiTime(row);
  const name = (f.event_name ?? '').trim();
  if (type !== '1' && !(type === '2' && name)) return { kind: 'refused' };
  return {
    kind: 'hit',
    hit: {
      visitorKey: (f.distinct_id ?? '').trim() || sessionKey,
      sessionKey,
      at,
      isPageview: type === '1',
      path: pagePath(f.url_path ?? ''),
      name: type === '1' ? '' : name.slice(0, 200),
      referrer: `${(f.referrer_domain ?? '').trim()}${(f.referrer_domain ?? '').trim() ? (f.referrer_path ?? '') : ''}`,
      utm: utmOf(f),
      country: countryCode(f.country ?? ''),
      device: deviceName(f.device ?? ''),
      browser: browserName(f.browser ?? ''),
      os: osName(f.os ?? ''),
      engagedSeconds: 0,
    },
  };
}

/** `2024-03-01 09:15:00` (UTC, as Umami writes it) or an ISO 8601 time with its zone. */
function umamiTime(row: CsvRow): Date {
  const raw = (row.fields.created_at ?? '').trim();
  const iso = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(raw)
    ? `${raw.replace(' ', 'T')}Z`
    : raw;
  const at = new Date(iso);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(at.getTime())) {
    throw new ImportFileError(
      row.line,
      `created_at ${JSON.stringify(raw.slice(0, 40))} is not a date and time`,
    );
  }
  return at;
}

/** The campaign tags: Umami's own columns where it has them, else the page's query string. */
function utmOf(f: Record<string, string>): Utm {
  const query = new URLSearchParams((f.url_query ?? '').replace(/^\?/, ''));
  const tag = (column: (typeof UTM_COLUMNS)[number]) =>
    ((f[column] ?? '').trim() || (query.get(column) ?? '').trim()).slice(0, 200);
  return {
    utm_source: tag('utm_source').toLowerCase(),
    utm_medium: tag('utm_medium').toLowerCase(),
    utm_campaign: tag('utm_campaign'),
    utm_content: tag('utm_content'),
    utm_term: tag('utm_term'),
  };
}
