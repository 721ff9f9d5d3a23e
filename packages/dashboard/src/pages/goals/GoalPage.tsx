/** One goal over the view's range: its completions per day, the properties sent with it, and who converted. */

import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from 'wouter';
import { goalLabel, goalsQuery } from '../../api/goals';
import { Skeleton } from '../../components/States';
import { dateWindow, useViewState } from '../../lib/view-state';
import { Toolbar } from '../overview/Toolbar';
import { GoalChart } from './GoalChart';
import { GoalFiguresList } from './GoalFiguresList';
import { GoalPeople } from './GoalPeople';
import { GoalProperties } from './GoalProperties';
import { NO_FIGURES, useGoalFigures } from './goal-figures';
import './goals.css';

function Summary({ siteId, name }: { siteId: string; name: string }) {
  const [view] = useViewState();
  const all = useGoalFigures(siteId, view);
  if (all.isPending) return <Skeleton height={48} width="50%" />;
  const figures = all.figures.get(name) ?? NO_FIGURES;
  return <GoalFiguresList figures={figures} className="goal-summary" />;
}

export default function GoalPage({ siteId, name }: { siteId: string; name: string }) {
  const goals = useQuery(goalsQuery(siteId));
  const goal = goals.data?.find((g) => g.name === name);
  const [view, update] = useViewState();
  const days = dateWindow(view);
  const search = useSearch();
  const query = search ? `?${search}` : '';
  const filtered = view.filters.length > 0;
  return (
    <main className="goals-page">
      <Link href={`/sites/${siteId}/goals${query}`} className="back-link">
        ← All goals
      </Link>
      <div className="page-head">
        <div>
          <h1>
            {goal?.emoji && <span aria-hidden="true">{goal.emoji} </span>}
            {goal ? goalLabel(goal) : name}
          </h1>
          <span className="muted small">
            Event <span className="mono">{name}</span>
            {goal?.archived_at ? ' · archived' : ''} · times in UTC
          </span>
        </div>
      </div>
      <Toolbar view={view} update={update} withCompare={false} />
      {goals.isSuccess && !goal && (
        <p className="notice small">
          No goal named <span className="mono">{name}</span> is registered on this site: the figures below are
          of events sent under that name, if any.
        </p>
      )}
      {filtered && (
        <p className="notice small">
          The filters narrow the figures at the top; the chart, properties and people cover every visit in the
          range.
        </p>
      )}
      <section className="card" aria-label="Completions over time">
        <Summary siteId={siteId} name={name} />
        <GoalChart siteId={siteId} name={name} days={days} />
      </section>
      <div className="grid-2">
        <section className="card" aria-labelledby="goal-properties">
          <h2 id="goal-properties" className="panel-title">
            Properties
          </h2>
          <GoalProperties siteId={siteId} name={name} days={days} />
        </section>
        <section className="card" aria-labelledby="goal-people">
          <h2 id="goal-people" className="panel-title">
            People
          </h2>
          <GoalPeople
            key={`${days?.from}-${days?.to}`}
            siteId={siteId}
            name={name}
            days={days}
            search={query}
          />
        </section>
      </div>
    </main>
  );
}
