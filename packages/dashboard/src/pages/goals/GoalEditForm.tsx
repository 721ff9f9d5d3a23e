/** Changes a goal's display name and emoji in its row; an empty box clears the value. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Goal, updateGoal } from '../../api/goals';
import { ApiError } from '../../api/http';
import { FormError } from '../../components/Form';
import { ErrorField, errorOnField } from './ErrorField';

export function GoalEditForm({ siteId, goal, onDone }: { siteId: string; goal: Goal; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState(goal.display_name ?? '');
  const [emoji, setEmoji] = useState(goal.emoji ?? '');
  const save = useMutation({
    mutationFn: () =>
      updateGoal(siteId, goal.id, {
        display_name: displayName.trim() || null,
        emoji: emoji.trim() || null,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['goals', siteId] });
      onDone();
    },
  });
  const error = save.error;
  const unplaced =
    error && !(error instanceof ApiError && (error.field === 'display_name' || error.field === 'emoji'));
  return (
    <form
      className="goal-edit"
      aria-label={`Edit ${goal.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDone();
      }}
    >
      <ErrorField
        label="Display name"
        value={displayName}
        onChange={(e) => setDisplayName(e.target.value)}
        maxLength={120}
        placeholder={goal.name}
        autoFocus
        error={errorOnField(error, 'display_name')}
      />
      <ErrorField
        label="Emoji"
        value={emoji}
        onChange={(e) => setEmoji(e.target.value)}
        className="emoji-input"
        error={errorOnField(error, 'emoji')}
      />
      {unplaced && <FormError error={error} />}
      <div className="goal-edit-actions">
        <button type="submit" className="button primary" disabled={save.isPending}>
          Save
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
