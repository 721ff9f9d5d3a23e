/** zod pieces shared by several routes. */
import { z } from 'zod';
import { SCOPES } from '../access/principal.js';
import { SITE_REF_PATTERN } from '../lib/ids.js';

export const emailSchema = z
  .email({ error: 'must be an email address' })
  .max(254)
  .transform((value) => value.toLowerCase())
  .meta({
    description: 'An email address; compared and stored in lower case',
    examples: ['maria@shop.example.com'],
  });

export const passwordSchema = z
  .string()
  .min(10, 'must be at least 10 characters')
  .max(1024, 'must be at most 1024 characters')
  .meta({ description: '10 to 1,024 characters', examples: ['correct-horse-battery-staple'] });

export const scopeSchema = z
  .enum(SCOPES)
  .meta({ description: 'A permission of an API key', examples: ['stats:read'] });

export const roleSchema = z.enum(['admin', 'member']).meta({
  description: 'Admins manage members, keys and every site; members use the sites',
  examples: ['member'],
});

export const uuidParam = z
  .uuid({ error: 'must be a UUID' })
  .meta({ examples: ['3f6c1a52-8d4e-4b7a-9c21-5e8f0d2b7a64'] });

/**
 * A whole number in a query string: digits only (no `1e2`, `0x10`, signs or blanks), from `min`
 * to `max`; documented as an integer.
 */
export const queryInteger = (min: number, max: number) => {
  const problem = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,9}$/, problem)
    .transform(Number)
    .pipe(z.number().int().min(min, problem).max(max, problem))
    .meta({ type: 'integer', minimum: min, maximum: max });
};

// Instants PostgreSQL can take as JavaScript writes them: it refuses year 0000, and past 9999
// `toISOString()` writes `+010000-…`, which it cannot parse; unbounded, both failed there as a 500.
const FIRST_INSTANT_MS = Date.parse('0001-01-01T00:00:00Z');
const LAST_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');

export const timestampSchema = z.iso
  .datetime({ offset: true, error: 'must be an ISO-8601 timestamp' })
  .refine((value) => {
    const ms = Date.parse(value);
    return ms >= FIRST_INSTANT_MS && ms <= LAST_INSTANT_MS;
  }, 'must fall within the years 0001 to 9999 (UTC)')
  .meta({ description: 'An ISO-8601 timestamp with a time zone offset', examples: ['2026-03-14T09:26:53Z'] });

/** `{error, message}` as our own account, sites and ingest routes answer; for the OpenAPI document. */
export const codedErrorSchema = z
  .object({ error: z.string(), message: z.string().optional(), field: z.string().optional() })
  .loose();

/** A reports route's `site_id`: the snippet key, or for a dashboard session the site UUID. */
export const siteRefSchema = z
  .string()
  .regex(SITE_REF_PATTERN, 'must be a ttid_ snippet key (or, for a dashboard session, a site UUID)')
  .meta({
    description: 'The site’s snippet key; a dashboard session may also pass the internal site UUID',
    examples: ['ttid_4kQp2ZrT9xVbN7mWcLs3Ed'],
  });
