/**
 * Moving goals: the list takes the new order at once and `PATCH /v1/goals/reorder` is sent the
 * whole order of the active goals; on an error the list goes back to what it was.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Goal, goalsQuery, reorderGoals } from '../../api/goals';

/** `ids` with `moved` taken out and put back at position `to`. */
export function moveTo(ids: string[], moved: string, to: number): string[] {
  const rest = ids.filter((id) => id !== moved);
  rest.splice(Math.max(0, Math.min(to, rest.length)), 0, moved);
  return rest;
}

export function useReorder(siteId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = goalsQuery(siteId);
  return useMutation({
    mutationFn: (ids: string[]) => reorderGoals(siteId, ids),
    onMutate: async (ids: string[]) => {
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData<Goal[]>(queryKey);
      if (before) {
        const position = new Map(ids.map((id, i) => [id, i]));
        // Archived goals keep their place after the active ones; only the active order is shown.
        const next = before.map((goal) => {
          const at = position.get(goal.id);
          return at === undefined ? goal : { ...goal, sort_order: at };
        });
        next.sort((a, b) => a.sort_order - b.sort_order || a.name.localeCompare(b.name));
        queryClient.setQueryData(queryKey, next);
      }
      return { before };
    },
    onError: (_error, _ids, context) => {
      if (context?.before) queryClient.setQueryData(queryKey, context.before);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}
