/**
 * The conversion listing of interface §4.5: one row per conversion, newest first, filtered by
 * event name and credited source under a model, a page at a time.
 */
import { useState } from 'react';
import { type ConversionFilters, useConversions } from '../../api/revenue';
import type { AttributionModel } from '../../api/types';
import { ConvertedValue, RatesNote } from '../../components/ConvertedMoney';
import { ErrorState, SkeletonRows } from '../../components/States';
import { formatDateTime, formatExact } from '../../lib/format';
import { creditedSource } from '../../lib/names';

export function ConversionListing({
  siteId,
  window,
  model,
}: {
  siteId: string;
  window: { from: string; to: string };
  model: AttributionModel;
}) {
  const [eventName, setEventName] = useState('');
  const [source, setSource] = useState('');
  const [page, setPage] = useState(1);
  const filters: ConversionFilters = {
    ...window,
    attribution_model: model,
    page,
    ...(eventName ? { event_name: eventName } : {}),
    ...(source.trim() ? { source: source.trim() } : {}),
  };
  const listing = useConversions(siteId, filters);
  const data = listing.data;
  return (
    <section className="card" aria-label="Conversions" style={{ marginTop: '1rem' }}>
      <div className="panel-head">
        <h2>Conversions</h2>
        {data?.total_count != null && (
          <span className="muted small">{formatExact(data.total_count)} in all</span>
        )}
        <span className="spacer" />
        <select
          className="input"
          aria-label="Event name"
          value={eventName}
          onChange={(e) => {
            setEventName(e.target.value);
            setPage(1);
          }}
        >
          <option value="">Every event</option>
          {(data?.event_names ?? []).map((event) => (
            <option key={event.name} value={event.name}>
              {event.name} ({formatExact(event.count)})
            </option>
          ))}
        </select>
        <input
          className="input"
          aria-label="Credited source"
          placeholder="Source, e.g. chatgpt"
          value={source}
          onChange={(e) => {
            setSource(e.target.value);
            setPage(1);
          }}
        />
      </div>
      {listing.isPending ? (
        <SkeletonRows rows={6} />
      ) : listing.isError ? (
        <ErrorState error={listing.error} retry={() => listing.refetch()} />
      ) : data && data.conversions.length === 0 ? (
        <p className="panel-empty">
          No conversions match. Goals sent from the snippet and payments from your backend appear here.
        </p>
      ) : (
        data && (
          <div className="table-scroll">
            <table className="data">
              <caption className="visually-hidden">Conversions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col" className="secondary">
                    When
                  </th>
                  <th scope="col">Event</th>
                  <th scope="col">Credited to</th>
                  <th scope="col" className="secondary">
                    Visit from
                  </th>
                  <th scope="col" className="secondary">
                    Country
                  </th>
                  <th scope="col" className="num">
                    Value
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.conversions.map((row) => {
                  const credited = row.ai_source === null ? null : creditedSource(row.ai_source);
                  return (
                    <tr key={row.event_id}>
                      <td className="secondary">{formatDateTime(row.timestamp)}</td>
                      <td>{row.event_name}</td>
                      <td>
                        {credited ? credited.name : <span className="muted">not credited</span>}
                        {credited?.ai && <span className="badge">AI</span>}
                        {row.confidence !== null && row.confidence < 1 && (
                          <span className="muted small"> {Math.round(row.confidence * 100)}%</span>
                        )}
                      </td>
                      <td className="secondary">
                        {row.source_name || <span className="muted">direct</span>}
                      </td>
                      <td className="secondary">{row.country_code || '—'}</td>
                      <td className="num">
                        <ConvertedValue row={row} displayCurrency={data.display_currency} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )
      )}
      {data && <RatesNote page={data} />}
      <div className="pager">
        <button type="button" className="button" disabled={page === 1} onClick={() => setPage(page - 1)}>
          Newer
        </button>
        <span className="muted small">Page {page}</span>
        <button type="button" className="button" disabled={!data?.has_more} onClick={() => setPage(page + 1)}>
          Older
        </button>
      </div>
    </section>
  );
}
