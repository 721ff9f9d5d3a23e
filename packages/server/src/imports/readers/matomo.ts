/**
 * Matomo: the CSV of its `Live.getLastVisitsDetails` API (`format=CSV`), one visit per row, its
 * actions flattened into columns `actionDetails_<n>_<field>` as Matomo's CSV renderer writes
 * nested lists (`type`, `url`, `timestamp`, and for events and goals `eventCategory`,
 * `eventAction`, `goalName`). Matomo writes it in UTF-16LE with a byte-order mark by default; UTF-8
 * is read too. The visit's referrer (`referrerUrl`, `referrerType`, `referrerName`), campaign
 * columns, `countryCode`, `deviceType`, `browserName`, `operatingSystemName` and `visitDuration`
 * (seconds) describe it; the actions are its pageviews (`action`) and custom events (`event`,
 * `goal`, and outlinks and downloads under our names).
 */
import { PassThrough, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { browserName, countryCode, deviceName, osName, pagePath } from '../device-names.js';
import {
  type ImportedHit,
  ImportFileError,
  type ImportRecord,
  type SourceReader,
  type Utm,
} from '../import-records.js';
import { type CsvRow, csvRows } from './csv-rows.js';

const REQUIRED = ['idVisit', 'visitorId', 'firstActionTimestamp'] as const;
/** Actions read per visit; Matomo's own visit report stops far below. */
const MAX_ACTIONS = 10_000;

/** UTF-16LE (the byte-order mark FF FE) as UTF-8; anything else passes as it is. */
function asUtf8(input: Readable): Readable {
  const output = new PassThrough();
  let decoder: StringDecoder | null | undefined;
  input.on('data', (chunk: Buffer) => {
    if (decoder === undefined) {
      const utf16 = chunk[0] === 0xff && chunk[1] === 0xfe;
      decoder = utf16 ? new StringDecoder('utf16le') : null;
      if (utf16) chunk = chunk.subarray(2);
    }
    if (!output.write(decoder ? Buffer.from(decoder.write(chunk)) : chunk)) {
      input.pause();
      output.once('drain', () => input.resume());
    }
  });
  input.on('end', () => output.end(decoder ? Buffer.from(decoder.end()) : undefined));
  input.on('error', (error) => output.destroy(error));
  output.on('close', () => input.destroy());
  return output;
}

const seconds = (row: CsvRow, column: string, fallback?: number): number => {
  const raw = (row.fields[column] ?? '').trim();
  if (raw === '' && fallback !== undefined) return fallback;
  if (!/^\d{9,11}$/.test(raw)) {
    throw new ImportFileError(
      row.line,
      `${column} ${JSON.stringify(raw.slice(0, 40))} is not a Unix time in seconds`,
    );
  }
  return Number(raw);
};

const EVENT_NAMES: Record<string, (row: CsvRow, prefix: string) => string> = {
  event: (row, prefix) =>
    (row.fields[`${prefix}eventAction`] || row.fields[`${prefix}eventCategory`] || '').trim(),
  goal: (row, prefix) => (row.fields[`${prefix}goalName`] ?? '').trim(),
  outlink: () => 'outbound_link',
  download: () => 'file_download',
  ecommerceOrder: () => 'purchase',
};

function campaignOf(row: CsvRow): Utm {
  const f = row.fields;
  const tag = (column: string) => (f[column] ?? '').trim().slice(0, 200);
  const isCampaign = (f.referrerType ?? '') === 'campaign';
  return {
    utm_source: tag('campaignSource').toLowerCase(),
    utm_medium: tag('campaignMedium').toLowerCase(),
    utm_campaign: tag('campaignName') || (isCampaign ? tag('referrerName') : ''),
    utm_content: tag('campaignContent'),
    utm_term: tag('campaignKeyword') || (isCampaign ? tag('referrerKeyword') : ''),
  };
}

function matomoRecord(row: CsvRow): ImportRecord {
  const f = row.fields;
  const visit = (f.idVisit ?? '').trim();
  if (!visit) throw new ImportFileError(row.line, 'idVisit is empty');
  const start = seconds(row, 'firstActionTimestamp');
  const base = {
    visitorKey: (f.visitorId ?? '').trim() || `visit:${visit}`,
    sessionKey: `visit:${visit}`,
    referrer: (f.referrerUrl ?? '').trim(),
    utm: campaignOf(row),
    country: countryCode(f.countryCode ?? ''),
    device: deviceName(f.deviceType ?? ''),
    browser: browserName(f.browserName ?? ''),
    os: osName(f.operatingSystemName ?? ''),
  };
  const hits: ImportedHit[] = [];
  for (let n = 0; n < MAX_ACTIONS; n++) {
    const prefix = `actionDetails_${n}_`;
    const type = f[`${prefix}type`];
    if (type === undefined || type === '') break;
    const name = type === 'action' ? '' : EVENT_NAMES[type]?.(row, prefix);
    if (name === undefined || (type !== 'action' && name === '')) continue;
    hits.push({
      ...base,
      at: new Date(seconds(row, `${prefix}timestamp`, start) * 1000),
      isPageview: type === 'action',
      path: pagePath(f[`${prefix}url`] ?? ''),
      name: name.slice(0, 200),
      engagedSeconds: 0,
    });
  }
  const [first] = hits;
  if (!first) return { kind: 'refused' };
  // The visit's time on site, as Matomo measured it, rides on its first hit.
  const duration = Number((f.visitDuration ?? '').trim());
  if (Number.isFinite(duration) && duration > 0) first.engagedSeconds = Math.round(duration);
  return { kind: 'hits', hits };
}

export const readMatomo: SourceReader = async function* (file) {
  for await (const row of csvRows(asUtf8(file.stream()), { required: REQUIRED })) yield matomoRecord(row);
};
