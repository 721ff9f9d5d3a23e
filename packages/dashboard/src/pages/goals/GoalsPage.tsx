/** A site's goals in their order, with how each converted over the view's range. */
import { useQuery } from '@tanstack/react-query';
import { useSearch } from 'wouter';
import { goalsQuery } from '../../api/goals';
import { EmptyState, ErrorState, SkeletonRows } from '../../components/States';
import { useViewState } from '../../lib/view-state';
import { Toolbar } from '../overview/Toolbar';
import { ArchivedGoals } from './ArchivedGoals';
import { GoalList } from './GoalList';
import { useGoalFigures } from './goal-figures';
import { NewGoalForm } from './NewGoalForm';
import './goals.css';

function HowGoalsArrive() {
  return (
    <EmptyState title="No goals yet">
      <p className="muted">
        A goal is an event your site sends when someone does what you hope for. Call this from your page where
        it happens; the goal appears here with its first event:
      </p>
      <pre className="snippet">window.touchtrail.track('signup')</pre>
      <p className="muted">Or declare it below before it is first sent.</p>
    </EmptyState>
  );
}

export default function GoalsPage({ siteId }: { siteId: string }) {
  const goals = useQuery(goalsQuery(siteId));
  const [view, update] = useViewState();
  const figures = useGoalFigures(siteId, view);
  const search = useSearch();
  const active = (goals.data ?? []).filter((g) => !g.archived_at);
  const archived = (goals.data ?? []).filter((g) => g.archived_at);
  return (
    <main className="goals-page">
      <div className="page-head">
        <div>
          <h1>Goals</h1>
          <span className="muted small">Conversions over the range · times in UTC</span>
        </div>
      </div>
      <Toolbar view={view} update={update} withCompare={false} />
      <section className="card" aria-label="Goals">
        {goals.isPending ? (
          <SkeletonRows rows={4} />
        ) : goals.isError ? (
          <ErrorState error={goals.error} retry={() => goals.refetch()} />
        ) : active.length === 0 ? (
          <HowGoalsArrive />
        ) : (
          <>
            {figures.error && <ErrorState error={figures.error} retry={figures.retry} />}
            <GoalList siteId={siteId} goals={active} figures={figures} search={search ? `?${search}` : ''} />
            <p className="muted small goal-tip">
              Drag a goal by its handle, or use its arrows, to change the order the reports list goals in.
            </p>
          </>
        )}
      </section>
      {goals.isSuccess && <NewGoalForm siteId={siteId} />}
      {goals.isSuccess && <ArchivedGoals siteId={siteId} goals={archived} />}
    </main>
  );
}
