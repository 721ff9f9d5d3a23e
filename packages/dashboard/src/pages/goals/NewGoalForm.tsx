/** Declares a goal before its first event: its event name, and the words and emoji people see. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createGoal } from '../../api/goals';
import { ApiError } from '../../api/http';
import { FormError } from '../../components/Form';
import { ErrorField, errorOnField } from './ErrorField';

const FIELDS = ['name', 'display_name', 'emoji'];

export function NewGoalForm({ siteId }: { siteId: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [emoji, setEmoji] = useState('');
  const create = useMutation({
    mutationFn: () =>
      createGoal(siteId, {
        name: name.trim(),
        ...(displayName.trim() ? { display_name: displayName.trim() } : {}),
        ...(emoji.trim() ? { emoji: emoji.trim() } : {}),
      }),
    onSuccess: () => {
      setName('');
      setDisplayName('');
      setEmoji('');
      queryClient.invalidateQueries({ queryKey: ['goals', siteId] });
    },
  });
  const error = create.error;
  const unplaced = error && !(error instanceof ApiError && error.field && FIELDS.includes(error.field));
  return (
    <form
      className="card goal-form"
      aria-label="Add a goal"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <h2>Add a goal</h2>
      <div className="goal-form-fields">
        <ErrorField
          label="Event name"
          hint="Lower-case letters, digits and _, as your site sends it"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={64}
          autoComplete="off"
          spellCheck={false}
          error={errorOnField(error, 'name')}
        />
        <ErrorField
          label="Display name"
          hint="Optional: what the reports call it"
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
          maxLength={120}
          error={errorOnField(error, 'display_name')}
        />
        <ErrorField
          label="Emoji"
          hint="Optional: one emoji"
          value={emoji}
          onChange={(e) => setEmoji(e.target.value)}
          className="emoji-input"
          error={errorOnField(error, 'emoji')}
        />
      </div>
      {unplaced && <FormError error={error} />}
      {create.isSuccess && (
        <p className="muted small" role="status">
          Added {create.data.display_name ?? create.data.name}.
        </p>
      )}
      <button type="submit" className="button primary" disabled={create.isPending}>
        {create.isPending ? 'Adding…' : 'Add the goal'}
      </button>
    </form>
  );
}
