/**
 * Google Analytics 4: NDJSON of its BigQuery export (the `events_YYYYMMDD` tables, one event per
 * line, as `bq extract --destination_format NEWLINE_DELIMITED_JSON` writes them: 64-bit integers
 * as strings, `event_params` as `[{key, value: {string_value | int_value | double_value}}]`).
 * A person is `user_pseudo_id`, a session that and `ga_session_id`. `page_view` is a pageview,
 * `user_engagement` brings engaged time, the enhanced-measurement clicks, downloads and form
 * submissions take our event names, other automatic events are left out, and the rest are the
 * site's custom events. Campaign tags come from the page's URL, else `collected_traffic_source`.
 */
import { browserName, countryFromName, deviceName, osName, pagePath } from '../device-names.js';
import { ImportFileError, type ImportRecord, type SourceReader, type Utm } from '../import-records.js';
import { type JsonLine, ndjsonLines } from './ndjson-lines.js';

/** Events GA4 sends by itself that are no part of a visit's figures. */
const LEFT_OUT = new Set([
  'session_start',
  'first_visit',
  'first_open',
  'scroll',
  'form_start',
  'video_start',
  'video_progress',
  'video_complete',
  'view_search_results',
  'screen_view',
  'app_remove',
  'os_update',
]);
/** GA4's enhanced-measurement events under the names our tracker gives them. */
const RENAMED: Record<string, string> = {
  click: 'outbound_link',
  file_download: 'file_download',
  form_submit: 'form_submit',
};

type Params = Map<string, string | number>;

function paramsOf(row: JsonLine): Params {
  const params: Params = new Map();
  const list = row.value.event_params;
  if (list === undefined || list === null) return params;
  if (!Array.isArray(list)) throw new ImportFileError(row.line, 'event_params is not a list');
  for (const entry of list as { key?: unknown; value?: Record<string, unknown> }[]) {
    if (typeof entry?.key !== 'string' || typeof entry.value !== 'object' || entry.value === null) continue;
    const { string_value, int_value, double_value, float_value } = entry.value;
    const value = string_value ?? int_value ?? double_value ?? float_value;
    if (typeof value === 'string' || typeof value === 'number') params.set(entry.key, value);
  }
  return params;
}

const text = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
const field = (object: unknown, key: string) =>
  typeof object === 'object' && object !== null ? (object as Record<string, unknown>)[key] : undefined;

function timeOf(row: JsonLine): Date {
  const raw = text(row.value.event_timestamp);
  if (!/^\d{13,17}$/.test(raw)) {
    throw new ImportFileError(
      row.line,
      `event_timestamp ${JSON.stringify(raw.slice(0, 40))} is not microseconds since 1970`,
    );
  }
  return new Date(Math.floor(Number(raw) / 1000));
}

function utmOf(location: string, collected: unknown): Utm {
  let query = new URLSearchParams();
  try {
    query = new URL(location).searchParams;
  } catch {
    // no URL, or not one: the collected source alone
  }
  const tag = (name: string, collectedName: string) =>
    ((query.get(name) ?? '').trim() || text(field(collected, collectedName)).trim()).slice(0, 200);
  const source = tag('utm_source', 'manual_source');
  return {
    utm_source: source === '(direct)' ? '' : source.toLowerCase(),
    utm_medium: tag('utm_medium', 'manual_medium')
      .replace(/^\(none\)$/, '')
      .toLowerCase(),
    utm_campaign: tag('utm_campaign', 'manual_campaign_name').replace(
      /^\((direct|not set|organic|referral)\)$/,
      '',
    ),
    utm_content: tag('utm_content', 'manual_content'),
    utm_term: tag('utm_term', 'manual_term').replace(/^\(not provided\)$/, ''),
  };
}

function ga4Record(row: JsonLine): ImportRecord {
  const v = row.value;
  const event = text(v.event_name).trim();
  if (!event) throw new ImportFileError(row.line, 'event_name is missing');
  const at = timeOf(row);
  if (LEFT_OUT.has(event)) return { kind: 'refused' };
  const visitor = text(v.user_pseudo_id).trim();
  if (!visitor) throw new ImportFileError(row.line, 'user_pseudo_id is missing');
  const params = paramsOf(row);
  const location = text(params.get('page_location'));
  const engaged = Number(params.get('engagement_time_msec') ?? 0);
  const isPageview = event === 'page_view';
  const device = v.device;
  return {
    kind: 'hit',
    hit: {
      visitorKey: visitor,
      sessionKey: `${visitor}.${text(params.get('ga_session_id'))}`,
      at,
      isPageview,
      path: pagePath(location),
      // user_engagement only carries engaged time: a hit with no name.
      name: isPageview || event === 'user_engagement' ? '' : (RENAMED[event] ?? event).slice(0, 200),
      referrer: text(params.get('page_referrer')),
      utm: utmOf(location, v.collected_traffic_source),
      country: countryFromName(text(field(v.geo, 'country'))),
      device: deviceName(text(field(device, 'category'))),
      browser: browserName(
        text(field(field(device, 'web_info'), 'browser')) || text(field(device, 'browser')),
      ),
      os: osName(text(field(device, 'operating_system'))),
      engagedSeconds: Number.isFinite(engaged) && engaged > 0 ? Math.round(engaged / 1000) : 0,
    },
  };
}

export const readGa4: SourceReader = async function* (file) {
  for await (const row of ndjsonLines(file.stream())) yield ga4Record(row);
};
