/** The bodies of the health routes; the 503 one is a named component of the OpenAPI document. */
import { z } from 'zod';

export const healthStatusSchema = z.object({ status: z.literal('ok') });

/** With ClickHouse on: whether it answers and how far the shipper is behind, per stream. */
const clickhouseDetailSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  ship_lag_seconds: z.record(z.string(), z.number().int().min(0)),
});

export const readyStatusSchema = healthStatusSchema.extend({ clickhouse: clickhouseDetailSchema.optional() });

export const notReadySchema = z.object({ status: z.literal('unavailable') });
