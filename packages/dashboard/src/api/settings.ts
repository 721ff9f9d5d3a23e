/** A site's settings, its webhooks and its deletion (interface §4.2, §4.3), by the site's internal UUID. */
import { queryOptions } from '@tanstack/react-query';
import type { Answer, Body } from './api-types';
import { api } from './http';

const sitePath = (siteId: string) => `/v1/sites/${encodeURIComponent(siteId)}`;

export type SiteChange = Body<'updateSite'>;

export const updateSite = (siteId: string, body: SiteChange) =>
  api<Answer<'updateSite'>>('PATCH', sitePath(siteId), { body });

export type DeletionScheduled = Answer<'deleteSite'>;

export const deleteSite = (siteId: string, confirmDomain: string) =>
  api<DeletionScheduled>('DELETE', sitePath(siteId), {
    body: { confirm_domain: confirmDomain } satisfies Body<'deleteSite'>,
  });

export const restoreSite = (siteId: string) =>
  api<Answer<'restoreSite'>>('POST', `${sitePath(siteId)}/restore`, {
    body: {} satisfies Body<'restoreSite'>,
  });

/** Every site with the ones scheduled for deletion, for the date their erasure runs. */
export const sitesWithDeletedQuery = queryOptions({
  queryKey: ['sites-with-deleted'],
  queryFn: () =>
    api<Answer<'listSites'>>('GET', '/v1/sites', { query: { include_deleted: 'true' } }).then((a) => a.sites),
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

const webhooksPath = (siteId: string) => `${sitePath(siteId)}/webhooks`;
const webhookPath = (siteId: string, webhookId: string) =>
  `${webhooksPath(siteId)}/${encodeURIComponent(webhookId)}`;

export const webhooksQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['webhooks', siteId],
    queryFn: () => api<Answer<'listWebhooks'>>('GET', webhooksPath(siteId)).then((a) => a.webhooks),
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
  api<Answer<'createWebhook'>>('POST', webhooksPath(siteId), { body });

export const updateWebhook = (siteId: string, webhookId: string, body: WebhookChange<'updateWebhook'>) =>
  api<Answer<'updateWebhook'>>('PATCH', webhookPath(siteId, webhookId), { body });

export const deleteWebhook = (siteId: string, webhookId: string) =>
  api<void>('DELETE', webhookPath(siteId, webhookId));

export const pingWebhook = (siteId: string, webhookId: string) =>
  api<PingResult>('POST', `${webhookPath(siteId, webhookId)}/test`, {
    body: {} satisfies Body<'testWebhook'>,
  });

export const rotateWebhookSecret = (siteId: string, webhookId: string) =>
  api<Answer<'rotateWebhookSecret'>>('POST', `${webhookPath(siteId, webhookId)}/rotate-secret`, {
    body: {} satisfies Body<'rotateWebhookSecret'>,
  });

export const fetchDeliveries = (
  siteId: string,
  webhookId: string,
  query: { status?: DeliveryStatus; before?: string; limit?: number },
) => api<Answer<'listWebhookDeliveries'>>('GET', `${webhookPath(siteId, webhookId)}/deliveries`, { query });
