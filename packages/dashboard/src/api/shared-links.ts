/** Shared links of a site (DESIGN.md §9): made and revoked in settings, opened by anyone with the URL. */
import type { Answer, Body } from './api-types';
import { api } from './http';

export type SharedLink = Answer<'listSharedLinks'>['shared_links'][number];
export type OpenedLink = Answer<'openSharedLink'>;

export const listSharedLinks = (siteId: string) =>
  api<Answer<'listSharedLinks'>>('GET', `/v1/sites/${siteId}/shared-links`).then((a) => a.shared_links);
export const createSharedLink = (siteId: string, body: Body<'createSharedLink'>) =>
  api<Answer<'createSharedLink'>>('POST', `/v1/sites/${siteId}/shared-links`, { body });
export const revokeSharedLink = (siteId: string, id: string) =>
  api<void>('DELETE', `/v1/sites/${siteId}/shared-links/${id}`);
export const openSharedLink = (body: Body<'openSharedLink'>) =>
  api<OpenedLink>('POST', '/v1/shared-links/open', { body });
