/** Where the signed-in person is signed in: each session with its browser, ended one by one or all but this. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { endOtherSessions, endSession, type MySession, mySessionsQuery } from '../../api/account-admin';
import { ConfirmAction } from '../../components/ConfirmAction';
import { ErrorState, SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../lib/format';

/** "Firefox on Linux" out of a user agent; the raw string stays available as a tooltip. */
export function describeAgent(agent: string | null): string {
  if (!agent) return 'Unknown browser';
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Firefox\//.test(agent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(agent)
        ? 'Chrome'
        : /Safari\//.test(agent)
          ? 'Safari'
          : null;
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone|iPad/.test(agent)
      ? 'iOS'
      : /Windows/.test(agent)
        ? 'Windows'
        : /Mac OS X/.test(agent)
          ? 'macOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : null;
  if (!browser) return agent.length > 60 ? `${agent.slice(0, 60)}…` : agent;
  return system ? `${browser} on ${system}` : browser;
}

function SessionItem({ session }: { session: MySession }) {
  const queryClient = useQueryClient();
  const end = useMutation({
    mutationFn: () => endSession(session.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['my-sessions'] }),
  });
  const name = describeAgent(session.user_agent);
  return (
    <li aria-label={session.current ? `${name} (this session)` : name}>
      <div className="grow">
        <div title={session.user_agent ?? undefined}>
          <strong>{name}</strong> {session.current && <span className="pill ok">This session</span>}
        </div>
        <div className="small muted">
          Signed in {formatDateTime(session.created_at)} · last active {formatDateTime(session.last_used_at)}
        </div>
      </div>
      {!session.current && (
        <div className="actions">
          <ConfirmAction
            label="Sign out"
            question="Sign this session out?"
            confirmLabel="Sign it out"
            pending={end.isPending}
            error={end.error}
            onConfirm={() => end.mutate()}
          />
        </div>
      )}
    </li>
  );
}

export function MySessions() {
  const queryClient = useQueryClient();
  const sessions = useQuery(mySessionsQuery);
  const endOthers = useMutation({
    mutationFn: endOtherSessions,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['my-sessions'] }),
  });
  const others = (sessions.data ?? []).filter((s) => !s.current).length;
  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">My sessions</h2>
      <p className="small muted">The browsers where you are signed in, most recently used first.</p>
      {sessions.isPending ? (
        <SkeletonRows rows={3} />
      ) : sessions.isError ? (
        <ErrorState error={sessions.error} retry={() => sessions.refetch()} />
      ) : (
        <>
          <ul className="item-list" aria-label="Sessions">
            {sessions.data.map((session) => (
              <SessionItem key={session.id} session={session} />
            ))}
          </ul>
          {others > 0 ? (
            <div className="row" style={{ marginTop: '0.8rem' }}>
              <ConfirmAction
                label="Sign out everywhere else"
                question={`Sign out the ${others} other session${others === 1 ? '' : 's'}?`}
                confirmLabel="Sign them out"
                pending={endOthers.isPending}
                error={endOthers.error}
                onConfirm={() => endOthers.mutate()}
              />
            </div>
          ) : (
            <p className="small muted">You are signed in nowhere else.</p>
          )}
        </>
      )}
    </section>
  );
}
