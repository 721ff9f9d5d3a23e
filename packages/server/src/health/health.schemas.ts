/** The bodies of the health routes; the 503 one is a named component of the OpenAPI document. */
import { z } from 'zod';

export const healthStatusSchema = z.object({ status: z.literal('ok') });

export const notReadySchema = z.object({ status: z.literal('unavailable') });
