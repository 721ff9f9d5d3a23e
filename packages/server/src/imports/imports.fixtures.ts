/**
 * Export files written by hand from each tool's documented format, small and with known answers,
 * and the requests the import tests send. Umami: its `website_event` columns (db/clickhouse/
 * schema.sql in umami-software/umami) as its data export writes them. Plausible: the ZIP of CSVs
 * its "Export data" writes (lib/plausible/exports.ex in plausible/analytics: one file per
 * `imported_*` table, ClickHouse's CSVWithNames, visit durations as sums of seconds).
 */
import yazl from 'yazl';
import { bearer, type TestApp } from '../test/app.js';

const UMAMI_HEADER =
  'website_id,session_id,visit_id,event_id,hostname,browser,os,device,screen,language,country,region,city,' +
  'url_path,url_query,utm_source,utm_medium,utm_campaign,utm_content,utm_term,referrer_path,referrer_query,' +
  'referrer_domain,page_title,event_type,event_name,tag,distinct_id,created_at';

interface UmamiRow {
  session: string;
  at: string;
  path: string;
  query?: string;
  referrer?: string;
  type?: 1 | 2 | 3;
  name?: string;
  country: string;
  device: string;
  browser: string;
  os: string;
}

const csvField = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The Umami rows: A from ChatGPT, B by a Perplexity tag, C from Google then direct an hour later, D direct. */
export function umamiRows(siteDomain: string): UmamiRow[] {
  const a = {
    session: 'a1b2c3d4-0000-4000-8000-00000000000a',
    country: 'US',
    device: 'desktop',
    browser: 'chrome',
    os: 'Windows 10',
  };
  const b = {
    session: 'a1b2c3d4-0000-4000-8000-00000000000b',
    country: 'DE',
    device: 'mobile',
    browser: 'ios',
    os: 'iOS',
  };
  const c = {
    session: 'a1b2c3d4-0000-4000-8000-00000000000c',
    country: 'FR',
    device: 'tablet',
    browser: 'firefox',
    os: 'Android OS',
  };
  const d = {
    session: 'a1b2c3d4-0000-4000-8000-00000000000d',
    country: 'GB',
    device: 'laptop',
    browser: 'edge-chromium',
    os: 'Mac OS',
  };
  return [
    { ...a, at: '2025-03-01 09:00:00', path: '/', referrer: 'chatgpt.com' },
    { ...a, at: '2025-03-01 09:05:00', path: '/pricing', referrer: siteDomain },
    { ...a, at: '2025-03-01 09:06:00', path: '/pricing', type: 2, name: 'signup' },
    {
      ...b,
      at: '2025-03-01 10:00:00',
      path: '/blog/post',
      query: 'utm_source=perplexity&utm_medium=referral',
    },
    { ...c, at: '2025-03-01 11:00:00', path: '/', referrer: 'www.google.com' },
    { ...c, at: '2025-03-01 12:00:00', path: '/' },
    { ...d, at: '2025-03-02 08:00:00', path: '/pricing' },
    { ...d, at: '2025-03-02 08:01:00', path: '/pricing', type: 2, name: 'signup' },
    { ...d, at: '2025-03-02 08:02:00', path: '/pricing', type: 3 },
  ];
}

export function umamiCsv(rows: UmamiRow[]): string {
  const lines = rows.map((row, i) =>
    [
      'b7e1c0de-0000-4000-8000-000000000001',
      row.session,
      row.session,
      `e0000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      'shop.example',
      row.browser,
      row.os,
      row.device,
      '1920x1080',
      'en-US',
      row.country,
      '',
      '',
      row.path,
      row.query ?? '',
      '',
      '',
      '',
      '',
      '',
      row.referrer ? '/' : '',
      '',
      row.referrer ?? '',
      'Title, with a comma',
      String(row.type ?? 1),
      row.name ?? '',
      '',
      '',
      row.at,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[UMAMI_HEADER, ...lines].join('\n')}\n`;
}

/** A Plausible export of two days in January 2025, as named files of CSV text. */
export function plausibleFiles(): Record<string, string> {
  const days = '_20250101_20250102.csv';
  return {
    [`imported_visitors${days}`]: [
      'date,visitors,pageviews,bounces,visits,visit_duration',
      '2025-01-01,10,30,4,12,600',
      '2025-01-02,5,9,2,6,120',
    ].join('\n'),
    [`imported_sources${days}`]: [
      'date,source,referrer,utm_source,utm_medium,utm_campaign,utm_content,utm_term,pageviews,visitors,visits,visit_duration,bounces',
      '2025-01-01,ChatGPT,chatgpt.com,,,,,,10,4,5,300,1',
      '2025-01-01,Google,www.google.com,,,,,,12,3,4,200,2',
      '2025-01-01,,,,,,,,8,3,3,100,1',
      '2025-01-02,Perplexity,,perplexity,referral,spring,,,9,5,6,120,2',
    ].join('\n'),
    [`imported_pages${days}`]: [
      'date,hostname,page,visits,visitors,pageviews,total_scroll_depth,total_scroll_depth_visits',
      '2025-01-01,shop.example,/,8,7,20,0,0',
      '2025-01-01,shop.example,/pricing,5,4,10,0,0',
      '2025-01-02,shop.example,/pricing,6,5,9,0,0',
    ].join('\n'),
    [`imported_entry_pages${days}`]: [
      'date,entry_page,visitors,entrances,visit_duration,bounces,pageviews',
      '2025-01-01,/,10,12,600,4,30',
      '2025-01-02,/pricing,5,6,120,2,9',
    ].join('\n'),
    [`imported_exit_pages${days}`]: [
      'date,exit_page,visitors,visit_duration,exits,bounces,pageviews',
      '2025-01-01,/pricing,10,600,12,4,30',
      '2025-01-02,/pricing,5,120,6,2,9',
    ].join('\n'),
    [`imported_custom_events${days}`]: [
      'date,name,link_url,path,visitors,events',
      '2025-01-01,signup,,,3,4',
      '2025-01-02,signup,,,1,1',
    ].join('\n'),
    [`imported_locations${days}`]: [
      'date,country,region,city,visitors,visits,visit_duration,bounces,pageviews',
      '2025-01-01,US,US-CA,5368361,6,7,400,2,20',
      '2025-01-01,US,US-NY,5128581,1,1,50,1,1',
      '2025-01-01,DE,DE-BE,2950159,3,4,150,1,9',
      '2025-01-02,FR,FR-IDF,2988507,5,6,120,2,9',
    ].join('\n'),
    [`imported_devices${days}`]: [
      'date,device,visitors,visits,visit_duration,bounces,pageviews',
      '2025-01-01,Desktop,7,8,500,2,22',
      '2025-01-01,Mobile,3,4,100,2,8',
      '2025-01-02,Laptop,5,6,120,2,9',
    ].join('\n'),
    [`imported_browsers${days}`]: [
      'date,browser,browser_version,visitors,visits,visit_duration,bounces,pageviews',
      '2025-01-01,Chrome,131.0,10,12,600,4,30',
      '2025-01-02,Firefox,133.0,5,6,120,2,9',
    ].join('\n'),
    [`imported_operating_systems${days}`]: [
      'date,operating_system,operating_system_version,visitors,visits,visit_duration,bounces,pageviews',
      '2025-01-01,Mac,14.1,10,12,600,4,30',
      '2025-01-02,GNU/Linux,0,5,6,120,2,9',
    ].join('\n'),
  };
}

/** The files as a ZIP, stored without compression as Plausible writes them. */
export function zipOf(files: Record<string, string>, options: { compress?: boolean } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) {
    zip.addBuffer(Buffer.from(`${text}\n`), name, { compress: options.compress ?? false });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    zip.outputStream.on('data', (part: Buffer) => parts.push(part));
    zip.outputStream.on('end', () => resolve(Buffer.concat(parts)));
    zip.outputStream.on('error', reject);
  });
}

export function upload(
  t: TestApp,
  key: string,
  site: string,
  source: string,
  file: Buffer | string,
  contentType = 'application/octet-stream',
) {
  return t.request({
    method: 'POST',
    url: `/v1/sites/${site}/imports?source=${source}`,
    headers: { ...bearer(key), 'content-type': contentType },
    payload: file,
  });
}

/** Stats of a site with its imports, UTC. */
export async function statsWithImports(t: TestApp, key: string, body: Record<string, unknown>) {
  const response = await t.request({
    method: 'POST',
    url: '/v1/stats/query',
    headers: bearer(key),
    payload: { timezone: 'UTC', ...body, include: { imports: true, ...(body.include as object) } },
  });
  if (response.statusCode !== 200) throw new Error(`stats query failed: ${response.body}`);
  return response.json() as {
    results: { dimensions: (string | null)[]; metrics: number[] }[];
    meta: { imports_included?: boolean; imports_skipped_reason?: string; approximate: string[] };
  };
}

interface Ga4Event {
  name: string;
  user: string;
  session: number;
  at: string;
  location?: string;
  referrer?: string;
  engagedMs?: number;
  country: string;
  device: { category: string; operating_system: string; browser: string };
}

/** One GA4 BigQuery export row, with 64-bit integers as strings as the JSON export writes them. */
export function ga4Row(event: Ga4Event): string {
  const micros = `${Date.parse(event.at)}000`;
  const params: { key: string; value: Record<string, unknown> }[] = [
    { key: 'ga_session_id', value: { int_value: String(event.session) } },
    { key: 'ga_session_number', value: { int_value: '1' } },
  ];
  if (event.location) params.push({ key: 'page_location', value: { string_value: event.location } });
  if (event.referrer) params.push({ key: 'page_referrer', value: { string_value: event.referrer } });
  if (event.engagedMs !== undefined)
    params.push({ key: 'engagement_time_msec', value: { int_value: String(event.engagedMs) } });
  return JSON.stringify({
    event_date: event.at.slice(0, 10).replaceAll('-', ''),
    event_timestamp: micros,
    event_name: event.name,
    event_params: params,
    user_pseudo_id: event.user,
    device: {
      category: event.device.category,
      operating_system: event.device.operating_system,
      web_info: { browser: event.device.browser, browser_version: '131.0', hostname: 'shop.example' },
    },
    geo: { country: event.country, region: '', city: '' },
    traffic_source: { name: '(direct)', medium: '(none)', source: '(direct)' },
    collected_traffic_source: null,
    platform: 'WEB',
  });
}

/**
 * GA4 events of 2025-05-10: u1 from ChatGPT (2 pageviews, 45 s engaged, a purchase), u2 by a
 * Perplexity tag (a bounce, 3 s), u3 from Google (20 s), u4 direct with a download a minute later.
 */
export function ga4Events(siteDomain: string): Ga4Event[] {
  const site = `https://${siteDomain}`;
  const mac = { category: 'desktop', operating_system: 'Macintosh', browser: 'Chrome' };
  const u1 = { user: '1234.5678', session: 1746871200, country: 'United States', device: mac };
  const u2 = {
    user: '2234.5678',
    session: 1746874800,
    country: 'Germany',
    device: { category: 'mobile', operating_system: 'iOS', browser: 'Safari' },
  };
  const u3 = {
    user: '3234.5678',
    session: 1746878400,
    country: 'United Kingdom',
    device: { category: 'tablet', operating_system: 'Android', browser: 'Chrome' },
  };
  const u4 = {
    user: '4234.5678',
    session: 1746882000,
    country: 'France',
    device: { category: 'desktop', operating_system: 'Windows', browser: 'Edge' },
  };
  return [
    { ...u1, name: 'session_start', at: '2025-05-10T10:00:00Z', location: `${site}/` },
    {
      ...u1,
      name: 'page_view',
      at: '2025-05-10T10:00:00Z',
      location: `${site}/`,
      referrer: 'https://chatgpt.com/',
    },
    {
      ...u1,
      name: 'page_view',
      at: '2025-05-10T10:03:00Z',
      location: `${site}/pricing`,
      referrer: `${site}/`,
    },
    {
      ...u1,
      name: 'user_engagement',
      at: '2025-05-10T10:04:00Z',
      location: `${site}/pricing`,
      engagedMs: 45_000,
    },
    { ...u1, name: 'purchase', at: '2025-05-10T10:05:00Z', location: `${site}/pricing` },
    {
      ...u2,
      name: 'page_view',
      at: '2025-05-10T11:00:00Z',
      location: `${site}/blog?utm_source=perplexity`,
      engagedMs: 3000,
    },
    { ...u2, name: 'scroll', at: '2025-05-10T11:00:02Z', location: `${site}/blog?utm_source=perplexity` },
    {
      ...u3,
      name: 'page_view',
      at: '2025-05-10T12:00:00Z',
      location: `${site}/`,
      referrer: 'https://www.google.com/',
      engagedMs: 20_000,
    },
    { ...u4, name: 'page_view', at: '2025-05-10T13:00:00Z', location: `${site}/pricing` },
    { ...u4, name: 'file_download', at: '2025-05-10T13:01:00Z', location: `${site}/pricing` },
  ];
}

interface MatomoVisit {
  id: number;
  visitor: string;
  start: string;
  duration: number;
  referrer: Record<string, string>;
  country: string;
  device: string;
  browser: string;
  os: string;
  actions: { type: string; url?: string; at: string; goalName?: string; eventAction?: string }[];
}

/**
 * Matomo visits of 2025-06-01: from ChatGPT (2 pageviews and a goal, 200 s), a Perplexity
 * campaign (a bounce), from Google with a download, direct (a bounce of 5 s).
 */
export function matomoVisits(siteDomain: string): MatomoVisit[] {
  const site = `https://${siteDomain}`;
  return [
    {
      id: 101,
      visitor: 'a1b2c3d4e5f60001',
      start: '2025-06-01T09:00:00Z',
      duration: 200,
      referrer: { referrerType: 'website', referrerName: 'chatgpt.com', referrerUrl: 'https://chatgpt.com/' },
      ...{ country: 'us', device: 'Desktop', browser: 'Chrome', os: 'Mac' },
      actions: [
        { type: 'action', url: `${site}/`, at: '2025-06-01T09:00:00Z' },
        { type: 'action', url: `${site}/pricing?plan=pro`, at: '2025-06-01T09:02:00Z' },
        { type: 'goal', goalName: 'Signup', at: '2025-06-01T09:03:00Z' },
      ],
    },
    {
      id: 102,
      visitor: 'a1b2c3d4e5f60002',
      start: '2025-06-01T10:00:00Z',
      duration: 0,
      referrer: {
        referrerType: 'campaign',
        referrerName: 'spring',
        campaignSource: 'perplexity',
        campaignMedium: 'referral',
      },
      ...{ country: 'de', device: 'Smartphone', browser: 'Mobile Safari', os: 'iOS' },
      actions: [{ type: 'action', url: `${site}/blog`, at: '2025-06-01T10:00:00Z' }],
    },
    {
      id: 103,
      visitor: 'a1b2c3d4e5f60003',
      start: '2025-06-01T11:00:00Z',
      duration: 60,
      referrer: { referrerType: 'search', referrerName: 'Google', referrerUrl: 'https://www.google.com/' },
      ...{ country: 'gb', device: 'Tablet', browser: 'Chrome', os: 'Android' },
      actions: [
        { type: 'action', url: `${site}/`, at: '2025-06-01T11:00:00Z' },
        { type: 'download', url: `${site}/guide.pdf`, at: '2025-06-01T11:01:00Z' },
      ],
    },
    {
      id: 104,
      visitor: 'a1b2c3d4e5f60004',
      start: '2025-06-01T12:00:00Z',
      duration: 5,
      referrer: { referrerType: 'direct', referrerName: '' },
      ...{ country: 'fr', device: 'Desktop', browser: 'Microsoft Edge', os: 'Windows' },
      actions: [{ type: 'action', url: `${site}/pricing`, at: '2025-06-01T12:00:00Z' }],
    },
  ];
}

const unix = (iso: string) => String(Date.parse(iso) / 1000);

/** The visits as Matomo's CSV renderer writes them: nested actions flattened, UTF-16LE with a mark. */
export function matomoCsv(visits: MatomoVisit[], options: { utf16?: boolean } = {}): Buffer {
  const actionFields = ['type', 'url', 'timestamp', 'goalName', 'eventCategory', 'eventAction'];
  const most = Math.max(...visits.map((visit) => visit.actions.length));
  const columns = [
    ...['idSite', 'idVisit', 'visitorId', 'visitIp', 'firstActionTimestamp', 'lastActionTimestamp'],
    ...['visitDuration', 'actions', 'referrerType', 'referrerName', 'referrerKeyword', 'referrerUrl'],
    ...['campaignSource', 'campaignMedium', 'campaignName', 'countryCode', 'deviceType', 'browserName'],
    'operatingSystemName',
    ...Array.from({ length: most }, (_, n) =>
      actionFields.map((field) => `actionDetails_${n}_${field}`),
    ).flat(),
  ];
  const rows = visits.map((visit) => {
    const values: Record<string, string> = {
      idSite: '1',
      idVisit: String(visit.id),
      visitorId: visit.visitor,
      visitIp: '192.0.2.0',
      firstActionTimestamp: unix(visit.start),
      lastActionTimestamp: unix(visit.actions.at(-1)?.at ?? visit.start),
      visitDuration: String(visit.duration),
      actions: String(visit.actions.length),
      countryCode: visit.country,
      deviceType: visit.device,
      browserName: visit.browser,
      operatingSystemName: visit.os,
      ...visit.referrer,
    };
    visit.actions.forEach((action, n) => {
      values[`actionDetails_${n}_type`] = action.type;
      values[`actionDetails_${n}_url`] = action.url ?? '';
      values[`actionDetails_${n}_timestamp`] = unix(action.at);
      values[`actionDetails_${n}_goalName`] = action.goalName ?? '';
      values[`actionDetails_${n}_eventAction`] = action.eventAction ?? '';
    });
    return columns.map((column) => csvField(values[column] ?? '')).join(',');
  });
  const text = [columns.join(','), ...rows].join('\n');
  return options.utf16 === false
    ? Buffer.from(text)
    : Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}
