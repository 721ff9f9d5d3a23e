/**
 * Each area's error body (http/error-bodies.ts, interface §7) as one named schema component.
 * Built here from the feature schemas rather than registered in zod's global registry: the
 * registry path emits every component twice (`GoalsError` and `GoalsErrorInput`).
 */
import { z } from 'zod';
import { conversionErrorSchemas } from '../conversions/conversions.schemas.js';
import { goalsErrorSchema } from '../goals/goals.schemas.js';
import { notReadySchema } from '../health/health.schemas.js';
import { paymentErrorSchemas } from '../payments/payments.schemas.js';
import { WEBHOOK_ERRORS } from '../webhooks/webhooks.schemas.js';
import type { Area } from './error-bodies.js';
import { codedErrorSchema } from './schemas.js';

interface ErrorComponent {
  name: string;
  description: string;
  /** Every body the area answers with; a response listing one of them points at the component. */
  bodies: z.ZodType[];
}

export const ERROR_COMPONENTS: Record<Area, ErrorComponent> = {
  account: {
    name: 'AccountError',
    description: 'Error body of the account, sign-in and key routes: `{error: code, message, field?}`',
    bodies: [codedErrorSchema],
  },
  sites: {
    name: 'SitesError',
    description: 'Error body of the sites and report routes: `{error: code, message, field?}`',
    bodies: [codedErrorSchema],
  },
  ingest: {
    name: 'IngestError',
    description: 'Error body of the ingest routes: `{error: code, message, field?}`',
    bodies: [codedErrorSchema],
  },
  goals: {
    name: 'GoalsError',
    description:
      'Error body of the goals routes: `{error, statusCode}`, or `{error, message, field}` for validation, or `{error: "conflict", code, message}`',
    bodies: [goalsErrorSchema],
  },
  webhooks: {
    name: 'WebhooksError',
    description:
      'Error body of the webhook routes: `{error: code, message, field?}`, or `{statusCode, message}` for an unknown webhook and for rate limits',
    bodies: Object.values(WEBHOOK_ERRORS),
  },
  payments: {
    name: 'PaymentsError',
    description: 'Error body of the payments route: `{error: short_code}`, with `issues` for validation',
    bodies: Object.values(paymentErrorSchemas),
  },
  conversions: {
    name: 'ConversionsError',
    description:
      'Error body of the conversions route: `{error, statusCode}`, or `{error, message, field}` for validation',
    bodies: Object.values(conversionErrorSchemas),
  },
};

/** Bodies outside any area, named once: `GET /readyz` answers the same whatever the caller. */
const SHARED_COMPONENTS: ErrorComponent[] = [
  {
    name: 'NotReady',
    description: 'Body of `GET /readyz` when the database does not answer: `{status: "unavailable"}`',
    bodies: [notReadySchema],
  },
];

/** A `describe()`d or `meta()`d copy of a schema shares its definition, and so its validation. */
const sameBody = (a: z.ZodType, b: z.ZodType) => a._zod.def === b._zod.def;

/** The component an area's route response points at, when the response lists one of its bodies. */
export function errorComponentFor(area: Area, schema: unknown): string | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  const candidates = [ERROR_COMPONENTS[area], ...SHARED_COMPONENTS];
  return candidates.find((component) => component.bodies.some((body) => sameBody(body, schema)))?.name;
}

export const componentRef = (name: string) => `#/components/schemas/${name}`;

/** A body's JSON schema without its description, which names the answer rather than the shape. */
function shapeOf(body: z.ZodType): Record<string, unknown> {
  const {
    $schema: _dialect,
    description: _answer,
    ...shape
  } = z.toJSONSchema(body, {
    io: 'output',
    target: 'draft-2020-12',
  });
  return shape;
}

/** One schema, or `anyOf` the distinct shapes when the area answers in several. */
function componentSchemaOf(bodies: z.ZodType[]): Record<string, unknown> {
  const shapes = new Map<string, Record<string, unknown>>();
  for (const body of bodies) {
    const shape = shapeOf(body);
    shapes.set(JSON.stringify(shape), shape);
  }
  const distinct = [...shapes.values()];
  return distinct.length === 1 ? { ...distinct[0] } : { anyOf: distinct };
}

/** The JSON schemas of every area's error component, by component name. */
export function errorComponentSchemas(): Record<string, Record<string, unknown>> {
  const schemas: Record<string, Record<string, unknown>> = {};
  for (const { name, description, bodies } of [...Object.values(ERROR_COMPONENTS), ...SHARED_COMPONENTS]) {
    schemas[name] = { ...componentSchemaOf(bodies), description };
  }
  return schemas;
}
