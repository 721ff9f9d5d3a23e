/**
 * A person’s visits, conversions and refunds on one line of time, oldest first: each visit with where it
 * came from, its entry page and figures, openable to its pages; each conversion with its value (in
 * the site's currency and, when sent in another, in its own beside it).
 */
import { useState } from 'react';
import type { Person, PersonConversion, PersonRefund, PersonVisit } from '../../api/people';
import { ConvertedValue } from '../../components/ConvertedMoney';
import { formatDateTime, formatDuration, formatMoney } from '../../lib/format';
import { pathOf, sourceWords } from './source-words';
import { VisitSteps } from './VisitSteps';

type Moment =
  | { at: string; visit: PersonVisit }
  | { at: string; conversion: PersonConversion }
  | { at: string; refund: PersonRefund; of: string };

function VisitItem({ siteId, visit }: { siteId: string; visit: PersonVisit }) {
  const [open, setOpen] = useState(false);
  const pages = visit.pageviews === 1 ? '1 page' : `${visit.pageviews} pages`;
  return (
    <li>
      <div className="when">{formatDateTime(visit.started_at)}</div>
      <div className="what">
        Visit from {sourceWords(visit.entry)}
        {visit.entry.source_kind === 'ai' && <span className="badge">AI</span>}
      </div>
      <div className="detail">
        Entered on <span className="mono">{pathOf(visit.entry.url) || '/'}</span> · {pages} ·{' '}
        {formatDuration(visit.active_time_sec)} engaged
        {visit.entry.campaign && ` · campaign ${visit.entry.campaign}`}
        {visit.device.browser &&
          ` · ${visit.device.browser} on ${visit.device.os || visit.device.device_type}`}
      </div>
      <button type="button" className="link-button small" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide the pages' : 'Show the pages'}
      </button>
      {open && <VisitSteps siteId={siteId} visitId={visit.id} />}
    </li>
  );
}

/** A value sent in another currency than the site's shows the converted amount first, as the listing does. */
function ConversionItem({
  conversion,
  siteCurrency,
}: {
  conversion: PersonConversion;
  siteCurrency: string;
}) {
  return (
    <li className="conversion">
      <div className="when">{formatDateTime(conversion.occurred_at)}</div>
      <div className="what">
        Converted: {conversion.name}
        {conversion.value_cents !== null && conversion.currency && (
          <>
            {' · '}
            <ConvertedValue row={conversion} displayCurrency={siteCurrency} inline />
          </>
        )}
      </div>
    </li>
  );
}

const paymentWords = (payment: PersonConversion | undefined) =>
  payment?.value_cents != null && payment.currency
    ? `the ${formatMoney(payment.value_cents, payment.currency)} ${payment.name}`
    : 'a payment';

function RefundItem({ refund, of }: { refund: PersonRefund; of: string }) {
  return (
    <li className="conversion refund">
      <div className="when">{formatDateTime(refund.refunded_at)}</div>
      <div className="what">
        Refunded: {formatMoney(refund.amount_cents, refund.currency)} of {of}
      </div>
    </li>
  );
}

export function VisitTrail({ siteId, person }: { siteId: string; person: Person }) {
  const moments: Moment[] = [
    ...person.visits.map((visit) => ({ at: visit.started_at, visit })),
    ...person.conversions.map((conversion) => ({ at: conversion.occurred_at, conversion })),
    ...person.refunds.map((refund) => ({
      at: refund.refunded_at,
      refund,
      of: paymentWords(person.conversions.find((c) => c.event_id === refund.event_id)),
    })),
  ].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  if (moments.length === 0) {
    return <p className="panel-empty">No visits in the range. Choose a longer range to see earlier ones.</p>;
  }
  return (
    <ol className="trail" aria-label="Visits and conversions, oldest first">
      {moments.map((moment) =>
        'visit' in moment ? (
          <VisitItem key={moment.visit.id} siteId={siteId} visit={moment.visit} />
        ) : 'refund' in moment ? (
          <RefundItem
            key={`${moment.refund.event_id}:${moment.refund.refunded_at}:${moment.refund.amount_cents}`}
            refund={moment.refund}
            of={moment.of}
          />
        ) : (
          <ConversionItem
            key={moment.conversion.event_id}
            conversion={moment.conversion}
            siteCurrency={person.revenue.currency}
          />
        ),
      )}
    </ol>
  );
}
