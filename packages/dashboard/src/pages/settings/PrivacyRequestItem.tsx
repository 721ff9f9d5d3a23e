/** One line of the privacy audit trail: what was asked, its status, what it found, and the export. */
import { Fragment } from 'react';
import {
  exportPath,
  isUnderway,
  type MatchedCounts,
  type PrivacyRequest,
  type PrivacyRequestStatus,
  requestTypeLabel,
  subjectLabel,
} from '../../api/privacy';
import { formatDateTime, formatExact } from '../../lib/format';

const STATUS: Record<PrivacyRequestStatus, { label: string; tone: string }> = {
  pending: { label: 'Pending', tone: '' },
  running: { label: 'Running', tone: '' },
  completed: { label: 'Completed', tone: 'ok' },
  failed: { label: 'Failed', tone: 'bad' },
};

const COUNTED: { key: keyof MatchedCounts; one: string; many: string }[] = [
  { key: 'visitors', one: 'visitor', many: 'visitors' },
  { key: 'visits', one: 'visit', many: 'visits' },
  { key: 'events', one: 'event', many: 'events' },
  { key: 'identity_links', one: 'identity link', many: 'identity links' },
  { key: 'payments', one: 'payment', many: 'payments' },
  { key: 'refunds', one: 'refund', many: 'refunds' },
];

/** "3 visitors", "1 payment": the kinds that matched anything (none when nothing did). */
export function matchedWords(matched: MatchedCounts): string[] {
  return COUNTED.filter((c) => matched[c.key] > 0).map(
    (c) => `${formatExact(matched[c.key])} ${matched[c.key] === 1 ? c.one : c.many}`,
  );
}

export function PrivacyRequestItem({ request }: { request: PrivacyRequest }) {
  const status = STATUS[request.status];
  const type = requestTypeLabel(request.type);
  const kind = subjectLabel(request.subject.kind).toLowerCase();
  const found = matchedWords(request.matched);
  return (
    <li aria-label={`${type} request by ${kind}, ${status.label.toLowerCase()}`}>
      <div className="grow">
        <div className="row">
          <strong>{type}</strong>
          <span className="muted">by {kind}</span>
          <span className={`pill ${status.tone}`}>{status.label}</span>
        </div>
        <div className="small">
          {found.length === 0
            ? 'Found nothing'
            : found.map((words, i) => (
                <Fragment key={words}>
                  {i > 0 && ' · '}
                  <span style={{ whiteSpace: 'nowrap' }}>{i === 0 ? `Found ${words}` : words}</span>
                </Fragment>
              ))}
        </div>
        <div className="small muted">
          Asked {formatDateTime(request.created_at)}
          {request.requested_by.key_id && ' with an API key'}
          {request.completed_at && ` · completed ${formatDateTime(request.completed_at)}`}
          {isUnderway(request) && ' · usually done within seconds'}
        </div>
        {request.error && (
          <p className="notice processor-error small">
            <strong>{request.status === 'failed' ? 'Failed' : 'Last attempt failed'}:</strong> {request.error}
          </p>
        )}
      </div>
      {request.type === 'access' && request.status === 'completed' && (
        <div className="actions" style={{ alignItems: 'center' }}>
          {request.export_url ? (
            <>
              <a className="button" href={exportPath(request.export_url)} download>
                Download
              </a>
              {request.export_expires_at && (
                <span className="small muted">until {formatDateTime(request.export_expires_at)}</span>
              )}
            </>
          ) : (
            <span className="small muted">Export expired</span>
          )}
        </div>
      )}
    </li>
  );
}
