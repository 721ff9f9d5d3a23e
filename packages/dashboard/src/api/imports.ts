/**
 * A site's imports (README "Importing your history"): the list, polled while one runs, the
 * upload with its progress (XMLHttpRequest: fetch reports no upload progress), and removal.
 */
import { queryOptions } from '@tanstack/react-query';
import type { Answer } from './api-types';
import { ApiError, api, NetworkError, unwrap } from './http';

export type SiteImport = Answer<'getImport'>['import'];
export type ImportSource = SiteImport['source'];

/** The tools the server reads today, with where their export comes from. */
export const IMPORT_SOURCES: readonly {
  source: ImportSource;
  label: string;
  file: string;
  accept: string;
}[] = [
  {
    source: 'plausible',
    label: 'Plausible',
    file: 'The ZIP from Site settings → Imports & Exports → Export data.',
    accept: '.zip,application/zip',
  },
  {
    source: 'umami',
    label: 'Umami',
    file: 'The CSV of website events from Umami’s data export.',
    accept: '.csv,text/csv',
  },
  {
    source: 'ga4',
    label: 'Google Analytics 4',
    file: 'NDJSON of the BigQuery export’s events_* tables (bq extract --destination_format NEWLINE_DELIMITED_JSON).',
    accept: '.json,.ndjson,.jsonl,application/x-ndjson,application/json',
  },
  {
    source: 'matomo',
    label: 'Matomo',
    file: 'The CSV of the Live.getLastVisitsDetails API (format=CSV).',
    accept: '.csv,text/csv',
  },
];

export const isUnderway = (item: SiteImport) => item.status === 'pending' || item.status === 'running';

export const importsQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['imports', siteId],
    queryFn: ({ signal }) =>
      unwrap(api.GET('/v1/sites/{siteId}/imports', { params: { path: { siteId } }, signal })).then(
        (answer) => answer.imports,
      ),
  });

export const removeImport = (siteId: string, importId: string) =>
  unwrap(api.DELETE('/v1/sites/{siteId}/imports/{importId}', { params: { path: { siteId, importId } } }));

/** Sends the file; `onProgress` gets the share sent (0 to 1). Same-origin, with the session cookie. */
export function uploadImport(
  siteId: string,
  source: ImportSource,
  file: File,
  onProgress: (share: number) => void,
): Promise<SiteImport> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/v1/sites/${encodeURIComponent(siteId)}/imports?source=${source}`);
    request.setRequestHeader('content-type', file.type || 'application/octet-stream');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onerror = () => reject(new NetworkError());
    request.onload = () => {
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(request.responseText) as Record<string, unknown>;
      } catch {
        body = null;
      }
      if (request.status === 202 && body) resolve((body as { import: SiteImport }).import);
      else reject(new ApiError(request.status, body));
    };
    request.send(file);
  });
}
