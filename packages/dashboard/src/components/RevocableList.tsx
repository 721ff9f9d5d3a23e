/**
 * A card listing credentials (API keys, bot tokens): name, prefix and state, the caller's detail
 * lines, and a revoke that asks once more. Revoked ones sink to the bottom and lose the button.
 */
import { type UseQueryResult, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ConfirmAction } from './ConfirmAction';
import { LoadError } from './LoadError';
import { EmptyState, SkeletonRows } from './States';

export interface Revocable {
  id: string;
  name: string;
  prefix: string;
  revoked_at: string | null;
}

function RevocableItem({
  item,
  state,
  details,
  question,
  revoke,
  queryKey,
}: {
  item: Revocable;
  /** A pill for a credential not revoked (an expired key); revoked ones say so themselves. */
  state?: ReactNode;
  details: ReactNode;
  question: string;
  revoke: (id: string) => Promise<unknown>;
  queryKey: readonly unknown[];
}) {
  const queryClient = useQueryClient();
  const revoking = useMutation({
    mutationFn: () => revoke(item.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
  return (
    <li aria-label={item.name}>
      <div className="grow">
        <div>
          <strong>{item.name}</strong> <span className="mono muted">{item.prefix}…</span>{' '}
          {item.revoked_at ? <span className="pill bad">Revoked</span> : state}
        </div>
        {details}
      </div>
      {!item.revoked_at && (
        <div className="actions">
          <ConfirmAction
            label="Revoke"
            question={question}
            confirmLabel="Revoke"
            pending={revoking.isPending}
            error={revoking.error}
            onConfirm={() => revoking.mutate()}
          />
        </div>
      )}
    </li>
  );
}

export function RevocableList<T extends Revocable>({
  titleId,
  title,
  intro,
  list,
  queryKey,
  empty,
  revoke,
  questionOf,
  stateOf,
  detailsOf,
}: {
  titleId: string;
  title: string;
  intro: ReactNode;
  list: UseQueryResult<T[]>;
  /** The list's query, refreshed after a revoke. */
  queryKey: readonly unknown[];
  empty: { title: string; hint: string };
  revoke: (id: string) => Promise<unknown>;
  questionOf: (item: T) => string;
  stateOf?: (item: T) => ReactNode;
  detailsOf: (item: T) => ReactNode;
}) {
  const sorted = [...(list.data ?? [])].sort((a, b) => Number(!!a.revoked_at) - Number(!!b.revoked_at));
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <p className="small muted">{intro}</p>
      {list.isPending ? (
        <SkeletonRows rows={3} />
      ) : list.isError ? (
        <LoadError error={list.error} retry={() => list.refetch()} />
      ) : sorted.length === 0 ? (
        <EmptyState title={empty.title}>
          <p className="muted">{empty.hint}</p>
        </EmptyState>
      ) : (
        <ul className="item-list" aria-label={title}>
          {sorted.map((item) => (
            <RevocableItem
              key={item.id}
              item={item}
              state={stateOf?.(item)}
              details={detailsOf(item)}
              question={questionOf(item)}
              revoke={revoke}
              queryKey={queryKey}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
