/**
 * The active goals in their order. A goal moves by dragging its handle onto another row, or
 * with its up and down buttons; either way the new order is saved at once and said out loud.
 */
import { type DragEvent, useState } from 'react';
import { type Goal, goalLabel } from '../../api/goals';
import { FormError } from '../../components/Form';
import { GoalRow } from './GoalRow';
import { NO_FIGURES, type useGoalFigures } from './goal-figures';
import { moveTo, useReorder } from './use-reorder';

export function GoalList({
  siteId,
  goals,
  figures,
  search,
}: {
  siteId: string;
  goals: Goal[];
  figures: ReturnType<typeof useGoalFigures>;
  search: string;
}) {
  const reorder = useReorder(siteId);
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const ids = goals.map((g) => g.id);

  const move = (goal: Goal, to: number) => {
    const next = moveTo(ids, goal.id, to);
    if (next.join() === ids.join()) return;
    setAnnouncement(`${goalLabel(goal)} moved to position ${to + 1} of ${ids.length}.`);
    reorder.mutate(next);
  };

  return (
    <>
      <ol className="goal-list" aria-label="Goals, in order">
        {goals.map((goal, i) => (
          <GoalRow
            key={goal.id}
            siteId={siteId}
            goal={goal}
            search={search}
            figures={figures.figures.get(goal.name) ?? NO_FIGURES}
            figuresPending={figures.isPending}
            moves={{
              up: i > 0 ? () => move(goal, i - 1) : undefined,
              down: i < goals.length - 1 ? () => move(goal, i + 1) : undefined,
              dragging: dragged === goal.id,
              dropTarget: over === goal.id && dragged !== goal.id,
              onDragStart: (event: DragEvent) => {
                event.dataTransfer.effectAllowed = 'move';
                event.dataTransfer.setData('text/plain', goal.id);
                const row = (event.currentTarget as HTMLElement).closest('li');
                if (row) event.dataTransfer.setDragImage(row, 16, 16);
                setDragged(goal.id);
              },
              onDragEnd: () => {
                setDragged(null);
                setOver(null);
              },
              onDragOver: (event: DragEvent) => {
                if (!dragged) return;
                event.preventDefault();
                event.dataTransfer.dropEffect = 'move';
                if (over !== goal.id) setOver(goal.id);
              },
              onDrop: (event: DragEvent) => {
                event.preventDefault();
                const moved = goals.find(
                  (g) => g.id === (dragged ?? event.dataTransfer.getData('text/plain')),
                );
                setDragged(null);
                setOver(null);
                if (moved) move(moved, i);
              },
            }}
          />
        ))}
      </ol>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {reorder.isError && (
        <FormError error={new Error(`The new order was not saved: ${reorder.error.message}`)} />
      )}
    </>
  );
}
