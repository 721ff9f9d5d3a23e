/**
 * One active goal: a drag handle, its emoji and name linking to its page, its figures, and the
 * buttons to move, edit and archive it. Archiving asks first, in the row.
 */

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useState } from 'react';
import { Link } from 'wouter';
import { archiveGoal, type Goal, goalLabel } from '../../api/goals';
import { FormError } from '../../components/Form';
import { Skeleton } from '../../components/States';
import { GoalEditForm } from './GoalEditForm';
import { GoalFiguresList } from './GoalFiguresList';
import type { GoalFigures } from './goal-figures';

export interface RowMoves {
  up?: () => void;
  down?: () => void;
  onDragStart: (event: DragEvent) => void;
  onDragEnd: () => void;
  onDragOver: (event: DragEvent) => void;
  onDrop: (event: DragEvent) => void;
  dropTarget: boolean;
  dragging: boolean;
}

function ArchiveConfirm({ siteId, goal, onCancel }: { siteId: string; goal: Goal; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const archive = useMutation({
    mutationFn: () => archiveGoal(siteId, goal.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['goals', siteId] }),
  });
  return (
    // biome-ignore lint/a11y/useSemanticElements: a question with two buttons, not a form
    <div className="goal-confirm" role="group" aria-label={`Archive ${goalLabel(goal)}?`}>
      <p>
        Archive <strong>{goalLabel(goal)}</strong>? Its events keep being recorded and you can bring it back.
      </p>
      <FormError error={archive.error} />
      <div className="goal-edit-actions">
        <button
          type="button"
          className="button danger"
          disabled={archive.isPending}
          onClick={() => archive.mutate()}
        >
          Archive
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Keep it
        </button>
      </div>
    </div>
  );
}

export function GoalRow({
  siteId,
  goal,
  figures,
  figuresPending,
  moves,
  search,
}: {
  siteId: string;
  goal: Goal;
  figures: GoalFigures;
  figuresPending: boolean;
  moves: RowMoves;
  search: string;
}) {
  const [mode, setMode] = useState<'view' | 'edit' | 'archive'>('view');
  const label = goalLabel(goal);
  const className = ['goal-row', moves.dropTarget ? 'drop-target' : '', moves.dragging ? 'dragging' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <li className={className} onDragOver={moves.onDragOver} onDrop={moves.onDrop} data-goal={goal.name}>
      <span
        className="goal-handle"
        draggable
        onDragStart={moves.onDragStart}
        onDragEnd={moves.onDragEnd}
        title={`Drag to move ${label}`}
        aria-hidden="true"
      >
        ⠿
      </span>
      <div className="goal-main">
        {mode === 'edit' ? (
          <GoalEditForm siteId={siteId} goal={goal} onDone={() => setMode('view')} />
        ) : (
          <>
            <div className="goal-name">
              {goal.emoji && (
                <span className="goal-emoji" aria-hidden="true">
                  {goal.emoji}
                </span>
              )}
              <Link href={`/sites/${siteId}/goals/${encodeURIComponent(goal.name)}${search}`}>{label}</Link>
              {goal.display_name && <span className="mono muted">{goal.name}</span>}
            </div>
            {figuresPending ? (
              <Skeleton height={20} width="60%" />
            ) : (
              <GoalFiguresList figures={figures} className="goal-figures" />
            )}
          </>
        )}
        {mode === 'archive' && (
          <ArchiveConfirm siteId={siteId} goal={goal} onCancel={() => setMode('view')} />
        )}
      </div>
      {mode === 'view' && (
        <div className="goal-actions">
          <button
            type="button"
            className="button icon"
            onClick={moves.up}
            disabled={!moves.up}
            aria-label={`Move ${label} up`}
          >
            ↑
          </button>
          <button
            type="button"
            className="button icon"
            onClick={moves.down}
            disabled={!moves.down}
            aria-label={`Move ${label} down`}
          >
            ↓
          </button>
          <button
            type="button"
            className="button"
            onClick={() => setMode('edit')}
            aria-label={`Edit ${label}`}
          >
            Edit
          </button>
          <button
            type="button"
            className="button"
            onClick={() => setMode('archive')}
            aria-label={`Archive ${label}`}
          >
            Archive
          </button>
        </div>
      )}
    </li>
  );
}
