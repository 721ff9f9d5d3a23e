/**
 * What a source reader makes of an export file: one record per data row of the file, in file
 * order, so a resumed import skips as many records as it staged before. A row is a hit (a
 * pageview or custom event of a tool that exports single events), the daily counts of a tool that
 * exports them, or refused (a bot, an event kind we do not import).
 */
import type { Readable } from 'node:stream';
import type { DayCounts, ImportSource } from '../db/import-types.js';

export interface ImportedHit {
  /** The tool's id of the person (a device or browser), and of their session when it has one. */
  visitorKey: string;
  sessionKey: string;
  at: Date;
  isPageview: boolean;
  /** The page's path without query string ('/' when empty). */
  path: string;
  /** The custom event's name; '' for a pageview, and for a hit that only brings engaged time. */
  name: string;
  /** The referring URL or host as the tool stored it; '' for none. */
  referrer: string;
  utm: Utm;
  /** ISO 3166-1 alpha-2, upper case; '' when unknown. */
  country: string;
  /** Our names (ingest/device.ts): `desktop`, `mobile`, `tablet`; Bowser's browser and OS names. */
  device: string;
  browser: string;
  os: string;
  engagedSeconds: number;
}

export interface Utm {
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_content: string;
  utm_term: string;
}

export type ImportRecord =
  | { kind: 'hit'; hit: ImportedHit }
  /** A row that is a whole visit (Matomo): its actions in order. */
  | { kind: 'hits'; hits: ImportedHit[] }
  | { kind: 'days'; rows: DayCounts[] }
  | { kind: 'refused' };

/** The site an import writes to, as a reader needs it. */
export interface ReaderContext {
  siteDomain: string;
}

/** The file as a reader gets it: the bytes in order, and random access for a ZIP. */
export interface ImportFile {
  size: number;
  stream(): Readable;
  /** The bytes [start, end) as a stream. */
  range(start: number, end: number): Readable;
  /** Bytes handed out so far (a progress figure: a ZIP reader reads some parts twice). */
  served(): number;
}

export type SourceReader = (file: ImportFile, context: ReaderContext) => AsyncIterable<ImportRecord>;

/** A file the reader cannot use, with the line (1-based, of the named part for a ZIP) at fault. */
export class ImportFileError extends Error {
  constructor(
    readonly line: number | null,
    message: string,
  ) {
    super(message);
  }
}

export const IMPORT_SOURCES = [
  'plausible',
  'umami',
  'ga4',
  'matomo',
] as const satisfies readonly ImportSource[];
