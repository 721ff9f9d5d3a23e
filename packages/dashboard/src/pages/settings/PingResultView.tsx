/** What a test ping got back: success or not, the status code, the time and the start of the answer. */
import type { PingResult } from '../../api/settings';

export function PingResultView({ result, onClose }: { result: PingResult; onClose: () => void }) {
  return (
    <div className="webhook-panel ping-result" role="status">
      <p style={{ marginTop: 0 }}>
        <strong className={result.ok ? 'status ok' : 'status'}>
          <span className="dot" aria-hidden="true" />
          {result.ok ? 'The endpoint answered' : 'The test failed'}
        </strong>{' '}
        <span className="small">
          {result.status_code === 0 ? 'no answer' : `HTTP ${result.status_code}`} in {result.latency_ms} ms
        </span>
      </p>
      {result.response_snippet && <pre className="snippet mono">{result.response_snippet}</pre>}
      <button type="button" className="link-button" onClick={onClose}>
        Hide the result
      </button>
    </div>
  );
}
