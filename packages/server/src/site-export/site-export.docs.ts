/**
 * The export's 200 in the OpenAPI document: the file under its two media types, each with its
 * own example. The zod schema of the 200 describes the file as text; by itself it would be
 * listed as application/json.
 */
import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { csvExportExample, ndjsonExportExample } from './site-export.examples.js';

type Transformed = { schema: { response?: Record<string, { description?: string }> }; url: string };

export const documentExportFile: SwaggerTransform = (args) => {
  const transformed = jsonSchemaTransform(args) as Transformed;
  const responses = transformed.schema.response;
  const file = responses?.['200'];
  if (responses && file) {
    responses['200'] = {
      description: file.description,
      content: {
        'application/x-ndjson': { schema: { type: 'string' }, example: ndjsonExportExample },
        'text/csv': { schema: { type: 'string' }, example: csvExportExample },
      },
    } as { description?: string };
  }
  return transformed;
};
