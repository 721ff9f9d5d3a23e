/**
 * Data-subject requests (DESIGN.md §12; README "Answering a data-subject request"):
 * make an access or erasure request about one person on a site, by the site's internal UUID, and
 * read the site's audit trail. Account-wide admins only: anyone else gets 403.
 */
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { Answer, Body } from './api-types';
import { ApiError, api, unwrap } from './http';

/** One request as the API answers it: the kind of id asked about, never its value. */
export type PrivacyRequest = Answer<'getPrivacyRequest'>;
export type PrivacyRequestType = PrivacyRequest['type'];
export type SubjectKind = PrivacyRequest['subject']['kind'];
export type PrivacyRequestStatus = PrivacyRequest['status'];
export type MatchedCounts = PrivacyRequest['matched'];
export type NewPrivacyRequest = Omit<Body<'createPrivacyRequest'>, 'site_id'>;

export const REQUEST_TYPES: readonly { type: PrivacyRequestType; label: string; short: string }[] = [
  { type: 'access', label: 'Get a copy of a person’s data', short: 'Access' },
  { type: 'erasure', label: 'Delete a person’s data', short: 'Erasure' },
];

/** The ids a request can name a person by, in the words of the README. */
export const SUBJECT_KINDS: readonly { kind: SubjectKind; label: string; hint: string }[] = [
  { kind: 'email', label: 'Email', hint: 'As sent with identify, server events or payments.' },
  { kind: 'user_id', label: 'User id', hint: 'Your own id of the signed-in person, as sent with identify.' },
  {
    kind: 'visitor_id',
    label: 'Visitor id',
    hint: 'The browser’s id, from touchtrail.getVisitorId() on the person’s device.',
  },
  { kind: 'handle', label: 'Visitor handle', hint: 'A vh_… handle from a goal’s list of visitors.' },
  { kind: 'customer_id', label: 'Payment customer id', hint: 'The customer id your processor gave them.' },
];

export const subjectLabel = (kind: SubjectKind) => SUBJECT_KINDS.find((s) => s.kind === kind)?.label ?? kind;
export const requestTypeLabel = (type: PrivacyRequestType) =>
  REQUEST_TYPES.find((r) => r.type === type)?.short ?? type;

/** Still to run: the list is polled while one is. */
export const isUnderway = (request: PrivacyRequest) =>
  request.status === 'pending' || request.status === 'running';

const PAGE_SIZE = 20;

export const privacyRequestsKey = (siteId: string) => ['privacy-requests', siteId];

/** The site's requests, newest first, a page at a time. */
export const privacyRequestsQuery = (siteId: string) =>
  infiniteQueryOptions({
    queryKey: privacyRequestsKey(siteId),
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/v1/privacy/requests', {
          params: { query: { site_id: siteId, limit: PAGE_SIZE, cursor: pageParam } },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });

export const createPrivacyRequest = (siteId: string, body: NewPrivacyRequest) =>
  unwrap(api.POST('/v1/privacy/requests', { body: { site_id: siteId, ...body } }));

/** The export's path on this origin (the API answers an absolute URL of the public address). */
export const exportPath = (exportUrl: string) => new URL(exportUrl, window.location.origin).pathname;

/** A refused request in words, naming the form's field rather than the API's. */
export function requestErrorWords(error: unknown, valueLabel: string): Error | null {
  if (!error) return null;
  if (!(error instanceof ApiError)) return error instanceof Error ? error : new Error(String(error));
  if (error.status === 422 && error.field === 'subject.value') {
    const words = error.message.replace(/^subject\.value: /, '');
    return new Error(`${valueLabel}: ${words}`);
  }
  return error;
}
