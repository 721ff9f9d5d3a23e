/**
 * AI crawlers and visibility: which AI operators crawl the site and for what, verified against
 * their published addresses, and the loop from their crawling to assistant visits, conversions
 * and revenue, per operator and per page.
 */
import { useQuery } from '@tanstack/react-query';
import { type CrawlerReport, useCrawlers } from '../../api/ai';
import { siteQuery } from '../../api/sites';
import { BarList } from '../../components/BarList';
import { ErrorState, SkeletonRows } from '../../components/States';
import { formatCount } from '../../lib/format';
import { capitalized } from '../../lib/names';
import { dateWindow, useViewState } from '../../lib/view-state';
import { Toolbar } from '../overview/Toolbar';
import { CrawlerTable } from './CrawlerTable';
import { OperatorLoop } from './OperatorLoop';
import { VisibilityTable } from './VisibilityTable';

/** Which crawlers' hits are checked against the addresses their operators publish. */
function AddressChecks({ checks }: { checks: CrawlerReport['address_checks'] }) {
  const inUse = checks.filter((c) => c.in_use).map((c) => c.crawler);
  return (
    <p className="muted small">
      {inUse.length > 0
        ? `Hits of ${inUse.join(', ')} are checked against the addresses their operators publish; others are counted as they come.`
        : 'No published address list is loaded yet, so crawler hits are counted as they come.'}
    </p>
  );
}

export default function AiPage({ siteId }: { siteId: string }) {
  const site = useQuery(siteQuery(siteId));
  const [view, update] = useViewState();
  const window = dateWindow(view);
  const model = view.model ?? site.data?.attribution_model;
  const crawlers = useCrawlers(siteId, window, model);
  const report = crawlers.data;
  return (
    <main>
      <div className="page-head">
        <div>
          <h1>AI crawlers and visibility</h1>
          <span className="muted small">
            From AI crawling to assistant visits, conversions and revenue · UTC days
          </span>
        </div>
      </div>
      <Toolbar view={view} update={update} withFilters={false} withCompare={false} />
      {crawlers.isError ? (
        <ErrorState error={crawlers.error} retry={() => crawlers.refetch()} />
      ) : (
        <>
          <section className="card" aria-label="Operators">
            <h2>Per AI operator</h2>
            {report ? <OperatorLoop report={report} /> : <SkeletonRows rows={4} />}
          </section>
          <div className="grid-2">
            <section className="card" aria-label="Crawlers">
              <h2>Crawlers</h2>
              {report ? <CrawlerTable report={report} /> : <SkeletonRows rows={4} />}
            </section>
            <section className="card" aria-label="Purposes">
              <h2>What they crawl for</h2>
              {!report ? (
                <SkeletonRows rows={3} />
              ) : report.purposes.length === 0 ? (
                <p className="panel-empty">No crawler hits in this range.</p>
              ) : (
                <BarList
                  caption="Crawler hits by purpose"
                  columns={['Purpose', 'Hits']}
                  rows={report.purposes.map((p) => ({
                    key: p.purpose,
                    name: <span className="name">{capitalized(p.purpose)}</span>,
                    value: p.hits,
                    figures: [formatCount(p.hits)],
                  }))}
                />
              )}
              {report && <AddressChecks checks={report.address_checks} />}
            </section>
          </div>
        </>
      )}
      <VisibilityTable siteId={siteId} window={window} model={model} />
    </main>
  );
}
