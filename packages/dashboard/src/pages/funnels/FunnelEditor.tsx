/**
 * Builds a funnel and reports on it: a name, a conversion window and 2 to 8 steps. "Run" reports
 * on the draft as it stands (saved or not); saving keeps it in the site's list.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import {
  createFunnel,
  deleteFunnel,
  type Funnel,
  type FunnelQuery,
  type FunnelStep,
  funnelQuery,
  updateFunnel,
} from '../../api/funnels';
import { goalsQuery } from '../../api/goals';
import { Field, FormError } from '../../components/Form';
import { queryScope, useViewState } from '../../lib/view-state';
import { Toolbar } from '../overview/Toolbar';
import { apiSteps, type Draft, draftOf, newDraft, stepProblem, WINDOWS } from './draft';
import { FunnelBreakdown } from './FunnelBreakdown';
import { FunnelReportCard } from './FunnelReportCard';
import { StepEditor } from './StepEditor';

interface Run {
  steps: FunnelStep[];
  window_hours: number;
}

function DeleteFunnel({ siteId, funnel, listPath }: { siteId: string; funnel: Funnel; listPath: string }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [asking, setAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteFunnel(siteId, funnel.id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: funnelQuery(siteId, funnel.id).queryKey });
      queryClient.invalidateQueries({ queryKey: ['funnels', siteId] });
      navigate(listPath);
    },
  });
  if (!asking) {
    return (
      <button type="button" className="button danger" onClick={() => setAsking(true)}>
        Delete
      </button>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: a question with two buttons, not a form
    <div className="funnel-confirm" role="group" aria-label="Delete this funnel?">
      <span>Delete “{funnel.name}”? The traffic it reported on stays.</span>
      <button
        type="button"
        className="button danger"
        disabled={remove.isPending}
        onClick={() => remove.mutate()}
      >
        Delete the funnel
      </button>
      <button type="button" className="button" onClick={() => setAsking(false)}>
        Keep it
      </button>
      <FormError error={remove.error} />
    </div>
  );
}

export function FunnelEditor({ siteId, funnel }: { siteId: string; funnel?: Funnel }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const search = useSearch();
  const query = search ? `?${search}` : '';
  const listPath = `/sites/${siteId}/funnels${query}`;
  const goals = useQuery(goalsQuery(siteId));
  const [view, update] = useViewState();
  const [draft, setDraft] = useState<Draft>(() => (funnel ? draftOf(funnel) : newDraft()));
  const [ran, setRan] = useState<Run | null>(() =>
    funnel ? { steps: funnel.steps, window_hours: funnel.window_hours } : null,
  );
  const [showProblems, setShowProblems] = useState(false);
  const [nameNeeded, setNameNeeded] = useState(false);
  const current: Run = { steps: apiSteps(draft.steps), window_hours: draft.windowHours };
  const valid = draft.steps.every((step) => stepProblem(step) === null);

  const save = useMutation({
    mutationFn: () => {
      const body = { name: draft.name.trim(), ...current };
      return funnel ? updateFunnel(siteId, funnel.id, body) : createFunnel(siteId, body);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(funnelQuery(siteId, saved.id).queryKey, saved);
      queryClient.invalidateQueries({ queryKey: ['funnels', siteId] });
      setRan({ steps: saved.steps, window_hours: saved.window_hours });
      if (!funnel) navigate(`/sites/${siteId}/funnels/${saved.id}${query}`);
    },
  });

  const scope = queryScope(view);
  // The funnel applies filters to the visit of step 1: only visit dimensions mean anything there.
  const visitFilters = (scope.filters ?? []).filter((filter) => filter[1].startsWith('visit:'));
  const reportQuery: FunnelQuery | null = ran
    ? {
        site_id: siteId,
        ...ran,
        date_range: scope.date_range,
        timezone: scope.timezone,
        ...(visitFilters.length ? { filters: visitFilters } : {}),
      }
    : null;
  const stale = ran !== null && JSON.stringify(ran) !== JSON.stringify(current);
  const ignoredFilters = (scope.filters?.length ?? 0) > visitFilters.length;

  return (
    <main className="funnels-page">
      <Link href={listPath} className="back-link">
        ← All funnels
      </Link>
      <div className="page-head">
        <div>
          <h1>{funnel ? funnel.name : 'New funnel'}</h1>
          <span className="muted small">People who went through the steps in order · days in UTC</span>
        </div>
      </div>
      <Toolbar view={view} update={update} withCompare={false} />
      {ignoredFilters && (
        <p className="notice small">Page and goal filters do not apply to funnels; the other filters do.</p>
      )}
      <form
        className="card funnel-form"
        aria-label="Funnel steps"
        onSubmit={(event) => {
          event.preventDefault();
          setShowProblems(true);
          if (valid) setRan(current);
        }}
      >
        <div className="funnel-settings">
          <Field
            label="Funnel name"
            value={draft.name}
            maxLength={100}
            placeholder="Pricing to signup"
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          />
          <div className="field">
            <label htmlFor="funnel-window">Count later steps within</label>
            <select
              id="funnel-window"
              value={draft.windowHours}
              onChange={(e) => setDraft({ ...draft, windowHours: Number(e.target.value) })}
            >
              {WINDOWS.map((w) => (
                <option key={w.hours} value={w.hours}>
                  {w.label} of step 1
                </option>
              ))}
              {!WINDOWS.some((w) => w.hours === draft.windowHours) && (
                <option value={draft.windowHours}>{draft.windowHours} hours of step 1</option>
              )}
            </select>
          </div>
        </div>
        <StepEditor
          steps={draft.steps}
          onChange={(steps) => setDraft({ ...draft, steps })}
          showProblems={showProblems}
          goalNames={(goals.data ?? []).filter((g) => !g.archived_at).map((g) => g.name)}
        />
        <FormError error={save.error} />
        <div className="funnel-actions">
          <button type="submit" className="button primary">
            Run the funnel
          </button>
          <button
            type="button"
            className="button"
            disabled={save.isPending}
            onClick={() => {
              setShowProblems(true);
              if (!valid) return;
              if (!draft.name.trim()) {
                save.reset();
                setNameNeeded(true);
                return;
              }
              save.mutate();
            }}
          >
            {save.isPending ? 'Saving…' : funnel ? 'Save changes' : 'Save the funnel'}
          </button>
          {save.isSuccess && !save.isPending && (
            <span className="muted small" role="status">
              Saved.
            </span>
          )}
          {nameNeeded && !draft.name.trim() && (
            <span className="form-error small" role="alert">
              Name the funnel to save it.
            </span>
          )}
          <span className="spacer" />
          {funnel && <DeleteFunnel siteId={siteId} funnel={funnel} listPath={listPath} />}
        </div>
      </form>
      <FunnelReportCard query={reportQuery} stale={stale} />
      {reportQuery && <FunnelBreakdown query={reportQuery} />}
    </main>
  );
}
