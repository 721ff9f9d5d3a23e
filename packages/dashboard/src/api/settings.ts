/** A site's settings, its webhooks and its deletion (interface §4.2, §4.3), by the site's internal UUID. */
import { queryOptions } from '@tanstack/react-query';
import { api } from './http';
import type { AttributionModel, Site } from './types';

const sitePath = (siteId: string) => `/v1/sites/${encodeURIComponent(siteId)}`;

export interface SiteChange {
  name?: string | null;
  attribution_model?: AttributionModel;
  cookie_apex_domain?: string | null;
  currency?: string;
  events_retention_days?: number | null;
  visits_retention_days?: number | null;
}

export const updateSite = (siteId: string, body: SiteChange) =>
  api<Site>('PATCH', sitePath(siteId), { body });

export interface DeletionScheduled {
  status: 'deletion_scheduled';
  site_id: string;
  domain: string;
  requested_at: string;
  effective_at: string;
  window_days: number;
}

export const deleteSite = (siteId: string, confirmDomain: string) =>
  api<DeletionScheduled>('DELETE', sitePath(siteId), { body: { confirm_domain: confirmDomain } });

export const restoreSite = (siteId: string) =>
  api<{ status: 'active'; site_id: string; domain: string }>('POST', `${sitePath(siteId)}/restore`, {
    body: {},
  });

/** Every site with the ones scheduled for deletion, for the date their erasure runs. */
export const sitesWithDeletedQuery = queryOptions({
  queryKey: ['sites-with-deleted'],
  queryFn: () =>
    api<{ sites: Site[] }>('GET', '/v1/sites', { query: { include_deleted: 'true' } }).then((a) => a.sites),
});

export const WEBHOOK_EVENT_TYPES = [
  { key: 'ai_session.classified', label: 'A visit is classified as coming from an AI assistant' },
  { key: 'conversion.attributed', label: 'A conversion is attributed to a source' },
  {
    key: 'conversion.refunded',
    label: 'A refund takes money back from the sources a payment was credited to',
  },
] as const;

export type VerificationStatus = 'verified' | 'failing' | 'unverified';

export interface Webhook {
  id: string;
  site_id: string;
  url: string;
  event_types: string[];
  enabled: boolean;
  verification_status: VerificationStatus;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'retrying' | 'succeeded' | 'failed';

export interface Delivery {
  id: string;
  webhook_id: string;
  event_type: string;
  envelope_id: string;
  status: DeliveryStatus;
  attempt_count: number;
  response_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  created_at: string;
  payload: string;
}

export interface PingResult {
  ok: boolean;
  status_code: number;
  latency_ms: number;
  response_snippet: string;
  verification_status: VerificationStatus;
}

const webhooksPath = (siteId: string) => `${sitePath(siteId)}/webhooks`;
const webhookPath = (siteId: string, webhookId: string) =>
  `${webhooksPath(siteId)}/${encodeURIComponent(webhookId)}`;

export const webhooksQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['webhooks', siteId],
    queryFn: () => api<{ webhooks: Webhook[] }>('GET', webhooksPath(siteId)).then((a) => a.webhooks),
  });

export const createWebhook = (siteId: string, body: { url: string; event_types: string[] }) =>
  api<Webhook & { secret: string }>('POST', webhooksPath(siteId), { body });

export const updateWebhook = (
  siteId: string,
  webhookId: string,
  body: { url?: string; event_types?: string[]; enabled?: boolean },
) => api<Webhook>('PATCH', webhookPath(siteId, webhookId), { body });

export const deleteWebhook = (siteId: string, webhookId: string) =>
  api<void>('DELETE', webhookPath(siteId, webhookId));

export const pingWebhook = (siteId: string, webhookId: string) =>
  api<PingResult>('POST', `${webhookPath(siteId, webhookId)}/test`, { body: {} });

export const rotateWebhookSecret = (siteId: string, webhookId: string) =>
  api<{ id: string; secret: string }>('POST', `${webhookPath(siteId, webhookId)}/rotate-secret`, {
    body: {},
  });

export const fetchDeliveries = (
  siteId: string,
  webhookId: string,
  query: { status?: DeliveryStatus; before?: string; limit?: number },
) =>
  api<{ deliveries: Delivery[]; next_before: string | null }>(
    'GET',
    `${webhookPath(siteId, webhookId)}/deliveries`,
    { query },
  );
