/** A site's settings, its webhooks and its deletion (interface §4.2, §4.3), by the site's internal UUID. */
import { queryOptions } from '@tanstack/react-query';
import type { QueryOf } from '@touchtrail/client';
import type { Answer, Body } from './api-types';
import { api, unwrap } from './http';

const ofSite = (siteId: string) => ({ params: { path: { siteId } } });
const ofWebhook = (siteId: string, webhookId: string) => ({ params: { path: { siteId, webhookId } } });

export type SiteChange = Body<'updateSite'>;

export const updateSite = (siteId: string, body: SiteChange) =>
  unwrap(api.PATCH('/v1/sites/{siteId}', { ...ofSite(siteId), body }));

export type DeletionScheduled = Answer<'deleteSite'>;

export const deleteSite = (siteId: string, confirmDomain: string) =>
  unwrap(api.DELETE('/v1/sites/{siteId}', { ...ofSite(siteId), body: { confirm_domain: confirmDomain } }));

export const restoreSite = (siteId: string) =>
  unwrap(api.POST('/v1/sites/{siteId}/restore', { ...ofSite(siteId), body: {} }));

/** Every site with the ones scheduled for deletion, for the date their erasure runs. */
export const sitesWithDeletedQuery = queryOptions({
  queryKey: ['sites-with-deleted'],
  queryFn: () =>
    unwrap(api.GET('/v1/sites', { params: { query: { include_deleted: 'true' } } })).then((a) => a.sites),
});

type WebhookEventType = NonNullable<Body<'createWebhook'>['event_types']>[number];

export const WEBHOOK_EVENT_TYPES = [
  { key: 'ai_session.classified', label: 'A visit is classified as coming from an AI assistant' },
  { key: 'conversion.attributed', label: 'A conversion is attributed to a source' },
  {
    key: 'conversion.refunded',
    label: 'A refund takes money back from the sources a payment was credited to',
  },
] as const satisfies readonly { key: WebhookEventType; label: string }[];

export type Webhook = Answer<'listWebhooks'>['webhooks'][number];
export type VerificationStatus = Webhook['verification_status'];
export type Delivery = Answer<'listWebhookDeliveries'>['deliveries'][number];
export type DeliveryStatus = Delivery['status'];
export type PingResult = Answer<'testWebhook'>;

export const webhooksQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['webhooks', siteId],
    queryFn: () => unwrap(api.GET('/v1/sites/{siteId}/webhooks', ofSite(siteId))).then((a) => a.webhooks),
  });

/**
 * Wider than the schema on purpose: the settings pages hold the checked event types as strings,
 * seeded from a webhook's answer (whose schema gives them as strings). The checkboxes offer only
 * WEBHOOK_EVENT_TYPES, which is checked against the schema above.
 */
type WebhookChange<Op extends 'createWebhook' | 'updateWebhook'> = Omit<Body<Op>, 'event_types'> & {
  event_types?: string[];
};

export const createWebhook = (siteId: string, body: WebhookChange<'createWebhook'>) =>
  unwrap(api.POST('/v1/sites/{siteId}/webhooks', { ...ofSite(siteId), body: body as Body<'createWebhook'> }));

export const updateWebhook = (siteId: string, webhookId: string, body: WebhookChange<'updateWebhook'>) =>
  unwrap(
    api.PATCH('/v1/sites/{siteId}/webhooks/{webhookId}', {
      ...ofWebhook(siteId, webhookId),
      body: body as Body<'updateWebhook'>,
    }),
  );

export const deleteWebhook = (siteId: string, webhookId: string) =>
  unwrap(api.DELETE('/v1/sites/{siteId}/webhooks/{webhookId}', ofWebhook(siteId, webhookId)));

export const pingWebhook = (siteId: string, webhookId: string) =>
  unwrap(
    api.POST('/v1/sites/{siteId}/webhooks/{webhookId}/test', { ...ofWebhook(siteId, webhookId), body: {} }),
  );

export const rotateWebhookSecret = (siteId: string, webhookId: string) =>
  unwrap(
    api.POST('/v1/sites/{siteId}/webhooks/{webhookId}/rotate-secret', {
      ...ofWebhook(siteId, webhookId),
      body: {},
    }),
  );

export const fetchDeliveries = (
  siteId: string,
  webhookId: string,
  query: QueryOf<'/v1/sites/{siteId}/webhooks/{webhookId}/deliveries', 'get'>,
) =>
  unwrap(
    api.GET('/v1/sites/{siteId}/webhooks/{webhookId}/deliveries', {
      params: { path: { siteId, webhookId }, query },
    }),
  );
