/** The people behind a goal's completions in the range, a page at a time, each opening their profile. */
import { useState } from 'react';
import { Link } from 'wouter';
import { type Days, PEOPLE_PAGE_SIZE, useGoalVisitors, type VisitorRow } from '../../api/goals';
import { ErrorState, SkeletonRows } from '../../components/States';
import { formatCount, formatDateTime } from '../../lib/format';

import { sourceWords } from './source-words';

function PersonRow({ siteId, person, search }: { siteId: string; person: VisitorRow; search: string }) {
  const visits = person.session_count === 1 ? '1 visit' : `${formatCount(person.session_count)} visits`;
  return (
    <li className="person-row">
      <span className="avatar" aria-hidden="true">
        {person.label.initials}
      </span>
      <div className="who">
        <Link href={`/sites/${siteId}/people/${encodeURIComponent(person.handle)}${search}`}>
          {person.label.name}
        </Link>{' '}
        <span className="muted small mono">{person.label.short_id}</span>
        <div className="muted small">
          {person.location.country_code && `${person.location.country_code} · `}
          {sourceWords(person.entry)} · {visits} · last seen {formatDateTime(person.last_seen)}
        </div>
      </div>
    </li>
  );
}

export function GoalPeople({
  siteId,
  name,
  days,
  search,
}: {
  siteId: string;
  name: string;
  days: Days | undefined;
  search: string;
}) {
  const [page, setPage] = useState(1);
  const people = useGoalVisitors(siteId, name, days, page);
  if (people.isError) return <ErrorState error={people.error} retry={() => people.refetch()} />;
  if (!people.data) return <SkeletonRows rows={5} />;
  const { visitors, total_count, has_more } = people.data;
  if (visitors.length === 0 && page === 1) {
    return <p className="panel-empty">Nobody completed this goal in the range. Try a longer range.</p>;
  }
  const pages = Math.max(1, Math.ceil(total_count / PEOPLE_PAGE_SIZE));
  return (
    <>
      <p className="muted small">
        {formatCount(total_count)} {total_count === 1 ? 'person' : 'people'} converted
        {people.data.identity_merge_complete ? '' : ' (some figures are lower bounds)'}.
      </p>
      <ul className="people-list" aria-label="People who converted" aria-busy={people.isFetching}>
        {visitors.map((person) => (
          <PersonRow key={person.handle} siteId={siteId} person={person} search={search} />
        ))}
      </ul>
      {pages > 1 && (
        <nav className="pager" aria-label="Pages of people">
          <button type="button" className="button" disabled={page === 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span className="small" aria-live="polite">
            Page {page} of {pages}
          </span>
          <button type="button" className="button" disabled={!has_more} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      )}
    </>
  );
}
