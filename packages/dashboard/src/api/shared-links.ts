/** Shared links of a site (DESIGN.md §9): made and revoked in settings, opened by anyone with the URL. */
import { api } from './http';

export interface SharedLink {
  id: string;
  label: string;
  prefix: string;
  has_password: boolean;
  created_at: string;
  revoked_at: string | null;
}

export interface OpenedLink {
  access_token: string;
  expires_at: string;
  site: { id: string; name: string | null; domain: string; currency: string };
}

export const listSharedLinks = (siteId: string) =>
  api<{ shared_links: SharedLink[] }>('GET', `/v1/sites/${siteId}/shared-links`).then((a) => a.shared_links);
export const createSharedLink = (siteId: string, body: { label?: string; password?: string }) =>
  api<SharedLink & { url: string }>('POST', `/v1/sites/${siteId}/shared-links`, { body });
export const revokeSharedLink = (siteId: string, id: string) =>
  api<void>('DELETE', `/v1/sites/${siteId}/shared-links/${id}`);
export const openSharedLink = (body: { token: string; password?: string }) =>
  api<OpenedLink>('POST', '/v1/shared-links/open', { body });
