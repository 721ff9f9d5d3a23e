/**
 * A site's payment-processor connections (DESIGN.md §11), by the site's internal UUID: list,
 * connect, disconnect. The processors' facts (where the secret is, which events to send) are the
 * README's section "Connect your payment processor", in the words a site owner needs.
 */
import { queryOptions } from '@tanstack/react-query';
import type { Answer, Body } from './api-types';
import { ApiError, api, unwrap } from './http';

export type ProcessorConnection = Answer<'listIntegrations'>['connections'][number];
export type ProcessorName = ProcessorConnection['provider'];
export type ConnectRequest = Body<'connectIntegration'>;

export interface ProcessorFacts {
  name: ProcessorName;
  label: string;
  /** Where the processor shows the endpoint's signing secret. */
  secretWhere: string;
  /** The events to tick on the processor's endpoint. */
  events: string[];
  /** An order to do things in, when the processor's own differs from "connect, then paste". */
  order?: string;
}

const AFTER_ENDPOINT =
  'The secret exists only once the endpoint does: create the endpoint with a temporary URL, connect here with its secret, then change the endpoint’s URL to the receiving URL.';

export const PROCESSORS: readonly ProcessorFacts[] = [
  {
    name: 'stripe',
    label: 'Stripe',
    secretWhere:
      'Dashboard → Developers → Webhooks (in Workbench: Event destinations) → your endpoint → Signing secret, whsec_…',
    events: [
      'checkout.session.completed',
      'checkout.session.async_payment_succeeded',
      'invoice.paid',
      'invoice_payment.paid',
      'customer.subscription.created',
      'charge.refunded',
    ],
    order: AFTER_ENDPOINT,
  },
  {
    name: 'paddle',
    label: 'Paddle',
    secretWhere:
      'Paddle → Developer tools → Notifications → your notification destination → its secret key, pdl_ntfset_…',
    events: [
      'transaction.completed',
      'subscription.created',
      'subscription.trialing',
      'adjustment.created',
      'adjustment.updated',
    ],
    order: AFTER_ENDPOINT,
  },
  {
    name: 'lemonsqueezy',
    label: 'Lemon Squeezy',
    secretWhere:
      'You choose it: type the same text here and in the webhook you create (Settings → Webhooks).',
    events: [
      'order_created',
      'order_refunded',
      'subscription_created',
      'subscription_payment_success',
      'subscription_payment_refunded',
    ],
    order: 'Connect here first, then create the webhook with the receiving URL and the same secret.',
  },
  {
    name: 'polar',
    label: 'Polar',
    secretWhere: 'Settings → Webhooks → your endpoint → its secret, whsec_…',
    events: ['order.paid', 'order.refunded', 'subscription.created (to record free trials)'],
    order: AFTER_ENDPOINT,
  },
];

export const processorLabel = (name: string) => PROCESSORS.find((p) => p.name === name)?.label ?? name;

const ofSite = (siteId: string) => ({ params: { path: { siteId } } });

export const connectionsQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['integrations', siteId],
    queryFn: () =>
      unwrap(api.GET('/v1/sites/{siteId}/integrations', ofSite(siteId))).then((a) => a.connections),
  });

export const connectProcessor = (siteId: string, body: ConnectRequest) =>
  unwrap(api.POST('/v1/sites/{siteId}/integrations', { ...ofSite(siteId), body }));

export const disconnectProcessor = (siteId: string, connectionId: string) =>
  unwrap(
    api.DELETE('/v1/sites/{siteId}/integrations/{connectionId}', {
      params: { path: { siteId, connectionId } },
    }),
  );

const FIELD_LABELS: Record<string, string> = {
  signing_secret: 'Signing secret',
  name: 'Label',
  default_currency: 'Default currency',
  provider: 'Processor',
};

/**
 * A refused connect in words: the conflict names the processor, a field error names the form's
 * field instead of the API's (`signing_secret: …` becomes `Signing secret: …`).
 */
export function connectErrorWords(error: unknown, provider: ProcessorName): Error | null {
  if (!error) return null;
  if (!(error instanceof ApiError)) return error instanceof Error ? error : new Error(String(error));
  if (error.status === 409 && error.code === 'provider_connected') {
    return new Error(
      `${processorLabel(provider)} is already connected to this site. Disconnect it first to connect it again.`,
    );
  }
  const label = error.field ? FIELD_LABELS[error.field] : undefined;
  if (error.status === 422 && error.field && label) {
    const words = error.message.startsWith(`${error.field}: `)
      ? error.message.slice(error.field.length + 2)
      : error.message;
    return new Error(`${label}: ${words}`);
  }
  return error;
}
