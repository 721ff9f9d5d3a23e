/** One person (never named: a generated label) over the view's range: who they are and their trail. */
import { Link, useSearch } from 'wouter';
import { type Person, usePerson } from '../../api/people';
import { ErrorState, SkeletonRows } from '../../components/States';
import { formatCount, formatDateTime, formatDuration, formatMoney } from '../../lib/format';
import { countryName } from '../../lib/names';
import { dateWindow, useViewState } from '../../lib/view-state';
import { Toolbar } from '../overview/Toolbar';
import { pathOf, sourceWords } from './source-words';
import { VisitTrail } from './VisitTrail';
import './goals.css';

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

function Facts({ person }: { person: Person }) {
  const { location, device, revenue } = person;
  const place = [location.city, location.country_code && countryName(location.country_code)]
    .filter(Boolean)
    .join(', ');
  return (
    <dl className="person-facts">
      <div>
        <dt>First seen</dt>
        <dd>{person.first_seen ? formatDateTime(person.first_seen) : '—'}</dd>
      </div>
      <div>
        <dt>Last seen</dt>
        <dd>{person.last_seen ? formatDateTime(person.last_seen) : '—'}</dd>
      </div>
      <div>
        <dt>Visits in the range</dt>
        <dd>
          {plural(person.session_count, 'visit')} · {plural(person.pageviews, 'pageview')} ·{' '}
          {formatDuration(person.active_time_sec)} engaged
        </dd>
      </div>
      <div>
        <dt>First came from</dt>
        <dd>
          {sourceWords(person.entry)}
          {person.entry.url && (
            <>
              {' '}
              on <span className="mono">{pathOf(person.entry.url)}</span>
            </>
          )}
        </dd>
      </div>
      <div>
        <dt>Place</dt>
        <dd>{place || 'Unknown'}</dd>
      </div>
      <div>
        <dt>Device</dt>
        <dd>{[device.device_type, device.browser, device.os].filter(Boolean).join(' · ') || 'Unknown'}</dd>
      </div>
      <div>
        <dt>Conversions</dt>
        <dd>
          {formatCount(revenue.conversion_count)}
          {revenue.total_cents > 0 && ` · ${formatMoney(revenue.total_cents, revenue.currency)}`}
        </dd>
      </div>
    </dl>
  );
}

export default function PersonPage({ siteId, handle }: { siteId: string; handle: string }) {
  const [view, update] = useViewState();
  const days = dateWindow(view);
  const person = usePerson(siteId, handle, days);
  const search = useSearch();
  return (
    <main className="goals-page">
      <Link href={`/sites/${siteId}/goals${search ? `?${search}` : ''}`} className="back-link">
        ← All goals
      </Link>
      {person.isError ? (
        <ErrorState error={person.error} retry={() => person.refetch()} />
      ) : !person.data ? (
        <SkeletonRows rows={8} />
      ) : (
        <>
          <div className="page-head person-head">
            <span className="avatar large" aria-hidden="true">
              {person.data.label.initials}
            </span>
            <div>
              <h1>{person.data.label.name}</h1>
              <span className="muted small">
                <span className="mono">{person.data.label.short_id}</span> · a generated name: people are
                never named · {person.data.is_new ? 'new in the range' : 'returning'}
              </span>
            </div>
          </div>
          <Toolbar view={view} update={update} withCompare={false} />
          <section className="card" aria-label="About this person">
            <Facts person={person.data} />
            {!person.data.identity_merge_complete && (
              <p className="muted small">
                Some of this person’s history was not read: figures are lower bounds.
              </p>
            )}
          </section>
          <section className="card" aria-labelledby="person-trail" style={{ marginTop: '1rem' }}>
            <h2 id="person-trail" className="panel-title">
              Visits, conversions and refunds
            </h2>
            <VisitTrail siteId={siteId} person={person.data} />
          </section>
        </>
      )}
    </main>
  );
}
