/** Archived goals, each with a button to make it active again (refused at the site's goal limit). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Goal, goalLabel, unarchiveGoal } from '../../api/goals';
import { FormError } from '../../components/Form';
import { formatDateTime } from '../../lib/format';

function ArchivedGoal({ siteId, goal }: { siteId: string; goal: Goal }) {
  const queryClient = useQueryClient();
  const unarchive = useMutation({
    mutationFn: () => unarchiveGoal(siteId, goal.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['goals', siteId] }),
  });
  return (
    <li className="archived-goal">
      <div>
        {goal.emoji && <span aria-hidden="true">{goal.emoji} </span>}
        <strong>{goalLabel(goal)}</strong> <span className="mono muted">{goal.name}</span>
        {goal.archived_at && <div className="muted small">Archived {formatDateTime(goal.archived_at)}</div>}
        <FormError error={unarchive.error} />
      </div>
      <button
        type="button"
        className="button"
        disabled={unarchive.isPending}
        onClick={() => unarchive.mutate()}
        aria-label={`Unarchive ${goalLabel(goal)}`}
      >
        Unarchive
      </button>
    </li>
  );
}

export function ArchivedGoals({ siteId, goals }: { siteId: string; goals: Goal[] }) {
  if (goals.length === 0) return null;
  return (
    <section className="card goal-archive" aria-labelledby="archived-goals">
      <h2 id="archived-goals">Archived</h2>
      <p className="muted small">
        Archived goals leave the reports; their events are still recorded, so nothing is lost.
      </p>
      <ul>
        {goals.map((goal) => (
          <ArchivedGoal key={goal.id} siteId={siteId} goal={goal} />
        ))}
      </ul>
    </section>
  );
}
