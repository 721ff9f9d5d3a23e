/**
 * The 200 of `GET /metrics` in the OpenAPI document: Prometheus text, with a sample. The zod
 * schema describes the answer as a string; by itself it would be listed as application/json.
 */
import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export const metricsExample = [
  '# HELP touchtrail_http_requests_total HTTP requests answered, by method, route pattern and status',
  '# TYPE touchtrail_http_requests_total counter',
  'touchtrail_http_requests_total{method="POST",route="/v1/collect",status="202"} 1520',
  '# HELP touchtrail_ingest_items_total Tracker payloads and server events by outcome: recorded, duplicate, dropped, failed (answered 503)',
  '# TYPE touchtrail_ingest_items_total counter',
  'touchtrail_ingest_items_total{outcome="recorded"} 1497',
  'touchtrail_ingest_items_total{outcome="duplicate"} 3',
  'touchtrail_ingest_items_total{outcome="dropped"} 20',
  'touchtrail_ingest_items_total{outcome="failed"} 0',
  '# HELP touchtrail_ingest_dropped_total Ingest items not stored, by reason',
  '# TYPE touchtrail_ingest_dropped_total counter',
  'touchtrail_ingest_dropped_total{reason="bot"} 20',
  '# HELP touchtrail_queue_depth Rows waiting in the work queues of the database (shared by every process)',
  '# TYPE touchtrail_queue_depth gauge',
  'touchtrail_queue_depth{queue="webhook_deliveries"} 0',
  '',
].join('\n');

type Transformed = { schema: { response?: Record<string, { description?: string }> }; url: string };

export const documentMetricsText: SwaggerTransform = (args) => {
  const transformed = jsonSchemaTransform(args) as Transformed;
  const responses = transformed.schema.response;
  const text = responses?.['200'];
  if (responses && text) {
    responses['200'] = {
      description: text.description,
      content: { 'text/plain': { schema: { type: 'string' }, example: metricsExample } },
    } as { description?: string };
  }
  return transformed;
};
