/** Shared links of a site (DESIGN.md §9): made and revoked in settings, opened by anyone with the URL. */
import type { Answer, Body } from './api-types';
import { api, unwrap } from './http';

export type SharedLink = Answer<'listSharedLinks'>['shared_links'][number];
export type OpenedLink = Answer<'openSharedLink'>;

const ofSite = (siteId: string) => ({ params: { path: { siteId } } });

export const listSharedLinks = (siteId: string) =>
  unwrap(api.GET('/v1/sites/{siteId}/shared-links', ofSite(siteId))).then((a) => a.shared_links);
export const createSharedLink = (siteId: string, body: Body<'createSharedLink'>) =>
  unwrap(api.POST('/v1/sites/{siteId}/shared-links', { ...ofSite(siteId), body }));
export const revokeSharedLink = (siteId: string, linkId: string) =>
  unwrap(api.DELETE('/v1/sites/{siteId}/shared-links/{linkId}', { params: { path: { siteId, linkId } } }));
export const openSharedLink = (body: Body<'openSharedLink'>) =>
  unwrap(api.POST('/v1/shared-links/open', { body }));
