/** zod pieces shared by several routes. */
import { z } from 'zod';
import { SCOPES } from '../access/principal.js';

export const emailSchema = z
  .email({ error: 'must be an email address' })
  .max(254)
  .transform((value) => value.toLowerCase());

export const passwordSchema = z
  .string()
  .min(10, 'must be at least 10 characters')
  .max(1024, 'must be at most 1024 characters');

export const scopeSchema = z.enum(SCOPES);

export const roleSchema = z.enum(['admin', 'member']);

export const uuidParam = z.uuid({ error: 'must be a UUID' });

export const timestampSchema = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 timestamp' });

/** `{error, message}` as our own account, sites and ingest routes answer; for the OpenAPI document. */
export const codedErrorSchema = z
  .object({ error: z.string(), message: z.string().optional(), field: z.string().optional() })
  .loose();
