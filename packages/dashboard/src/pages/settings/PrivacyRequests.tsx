/**
 * A site's data-subject requests: the form to make one, then the audit trail, newest first,
 * polled while a request is still to run. Only account-wide admins may see either; a member is
 * told so in words instead of meeting the API's 403.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { meQuery } from '../../api/account';
import { ApiError } from '../../api/http';
import { isUnderway, privacyRequestsQuery } from '../../api/privacy';
import { LoadError } from '../../components/LoadError';
import { EmptyState, SkeletonRows } from '../../components/States';
import { NewPrivacyRequest } from './NewPrivacyRequest';
import { PrivacyRequestItem } from './PrivacyRequestItem';

const POLL_MS = 3000;

export function PrivacyRequests({ siteId }: { siteId: string }) {
  const me = useQuery(meQuery);
  if (me.isPending) return <SkeletonRows rows={4} />;
  if (me.isError) return <LoadError error={me.error} retry={() => me.refetch()} />;
  if (me.data?.role === 'member') return <AdminsOnly />;
  return (
    <>
      <NewPrivacyRequest siteId={siteId} />
      <RequestList siteId={siteId} />
    </>
  );
}

function AdminsOnly() {
  return (
    <section className="card" aria-labelledby="privacy-title">
      <h2 id="privacy-title">Privacy requests</h2>
      <p className="notice" style={{ marginBottom: 0 }}>
        Only an account-wide admin can make or see privacy requests. Ask an admin of your account to answer a
        person’s request for a copy of their data or for its deletion.
      </p>
    </section>
  );
}

function RequestList({ siteId }: { siteId: string }) {
  const list = useInfiniteQuery({
    ...privacyRequestsQuery(siteId),
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.requests.some(isUnderway)) ? POLL_MS : false,
  });
  if (list.isError && list.error instanceof ApiError && list.error.status === 403) return <AdminsOnly />;
  const requests = list.data?.pages.flatMap((page) => page.requests) ?? [];
  return (
    <section className="card" aria-labelledby="privacy-list-title">
      <h2 id="privacy-list-title">Requests on this site</h2>
      <p className="small muted">
        The audit trail: who asked for what and what it found. The id a request named is never kept in clear,
        so it is not shown.
      </p>
      {list.isPending ? (
        <SkeletonRows rows={3} />
      ) : list.isError ? (
        <LoadError error={list.error} retry={() => list.refetch()} />
      ) : requests.length === 0 ? (
        <EmptyState title="No request yet">
          <p className="muted">
            When someone asks what you hold about them, or asks you to delete it, answer above.
          </p>
        </EmptyState>
      ) : (
        <ul className="item-list" aria-label="Privacy requests">
          {requests.map((request) => (
            <PrivacyRequestItem key={request.id} request={request} />
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <button
          type="button"
          className="button"
          style={{ marginTop: '0.6rem' }}
          disabled={list.isFetchingNextPage}
          onClick={() => list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
}
