/**
 * A site's imports: upload another tool's export with a progress bar, then each import's status
 * (polled while one runs), the days it brought, a failed file's line and reason, and removal.
 * The reports add imported days on their own; the overview's chart marks them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  IMPORT_SOURCES,
  type ImportSource,
  importsQuery,
  isUnderway,
  removeImport,
  type SiteImport,
  uploadImport,
} from '../../api/imports';
import { ConfirmAction } from '../../components/ConfirmAction';
import { FormError } from '../../components/Form';
import { LoadError } from '../../components/LoadError';
import { EmptyState, SkeletonRows } from '../../components/States';
import { formatDateTime, formatDay, formatExact } from '../../lib/format';

const POLL_MS = 2000;

export function Imports({ siteId }: { siteId: string }) {
  return (
    <>
      <NewImport siteId={siteId} />
      <ImportList siteId={siteId} />
    </>
  );
}

function NewImport({ siteId }: { siteId: string }) {
  const queryClient = useQueryClient();
  const [source, setSource] = useState<ImportSource>('plausible');
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<number | null>(null);
  const fileId = useId();
  const upload = useMutation({
    mutationFn: (chosen: File) => uploadImport(siteId, source, chosen, setSent),
    onSettled: () => {
      setSent(null);
      return queryClient.invalidateQueries({ queryKey: importsQuery(siteId).queryKey });
    },
    onSuccess: () => setFile(null),
  });
  const chosen = IMPORT_SOURCES.find((s) => s.source === source) ?? IMPORT_SOURCES[0];
  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">Import your history</h2>
      <p className="small muted">
        Bring the traffic of the tool you used before. Its referrers and campaign tags go through the same
        rules as your live traffic, so AI assistants are named. Only days before your site’s own traffic are
        kept.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (file) upload.mutate(file);
        }}
      >
        <fieldset className="field">
          <legend>From</legend>
          <div className="row">
            {IMPORT_SOURCES.map((option) => (
              <label className="choice" key={option.source} style={{ whiteSpace: 'nowrap' }}>
                <input
                  type="radio"
                  name="import-source"
                  value={option.source}
                  checked={source === option.source}
                  onChange={() => setSource(option.source)}
                />
                {option.label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="field">
          <label htmlFor={fileId}>Export file</label>
          <input
            id={fileId}
            type="file"
            accept={chosen?.accept}
            aria-describedby={`${fileId}-hint`}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
          <span className="hint" id={`${fileId}-hint`}>
            {chosen?.file} Up to 2 GiB.
          </span>
        </div>
        {sent !== null && (
          <div className="field">
            <progress max={1} value={sent} aria-label="Upload progress" />
            <span className="small muted">Uploading… {Math.floor(sent * 100)}%</span>
          </div>
        )}
        <button type="submit" className="button primary" disabled={!file || upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Upload and import'}
        </button>
        <FormError error={upload.error} />
      </form>
    </section>
  );
}

function ImportList({ siteId }: { siteId: string }) {
  const list = useQuery({
    ...importsQuery(siteId),
    refetchInterval: (query) => (query.state.data?.some(isUnderway) ? POLL_MS : false),
  });
  return (
    <section className="card" aria-labelledby="imports-list-title">
      <h2 id="imports-list-title">Imports of this site</h2>
      {list.isPending ? (
        <SkeletonRows rows={2} />
      ) : list.isError ? (
        <LoadError error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState title="No import yet">
          <p className="muted">Upload an export above to see last year’s traffic next to this year’s.</p>
        </EmptyState>
      ) : (
        <ul className="item-list" aria-label="Imports">
          {list.data.map((item) => (
            <ImportItem key={item.id} siteId={siteId} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
}

const STATUS: Record<SiteImport['status'], { label: string; tone: string }> = {
  pending: { label: 'Waiting', tone: 'neutral' },
  running: { label: 'Reading', tone: 'neutral' },
  completed: { label: 'Imported', tone: 'ok' },
  failed: { label: 'Failed', tone: 'bad' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
};

function ImportItem({ siteId, item }: { siteId: string; item: SiteImport }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => removeImport(siteId, item.id),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: importsQuery(siteId).queryKey }),
        queryClient.invalidateQueries({ queryKey: ['stats'] }),
      ]),
  });
  const status = STATUS[item.status];
  const label = IMPORT_SOURCES.find((s) => s.source === item.source)?.label ?? item.source;
  const { progress } = item;
  const [first, last] = item.date_range ?? [];
  return (
    <li aria-label={`${label} import, ${status.label.toLowerCase()}`}>
      <div className="grow">
        <div className="row">
          <strong>{label}</strong>
          <span className={`pill ${status.tone}`}>{status.label}</span>
        </div>
        <div className="small">
          {first && last
            ? `${formatDay(first, true)} – ${formatDay(last, true)}`
            : item.status === 'completed'
              ? 'No day kept'
              : null}
          {item.status === 'running' && progress.bytes_total > 0 && (
            <progress
              max={progress.bytes_total}
              value={progress.bytes_read}
              aria-label="Reading progress"
              style={{ width: '10rem' }}
            />
          )}
        </div>
        <div className="small muted">
          {formatExact(progress.rows_read)} rows read
          {progress.rows_refused > 0 && `, ${formatExact(progress.rows_refused)} left out`} · uploaded{' '}
          {formatDateTime(item.created_at)}
          {item.kept_before &&
            ` · days from ${formatDay(item.kept_before, true)} on left out: your own traffic starts there`}
        </div>
        {item.error && (
          <p className="notice processor-error small">
            <strong>{item.error.line ? `Line ${item.error.line}:` : 'The file:'}</strong> {item.error.message}
            . Nothing of it was kept; fix the file and upload it again.
          </p>
        )}
      </div>
      <ConfirmAction
        label={isUnderway(item) ? 'Cancel' : 'Remove'}
        question={
          isUnderway(item) ? 'Stop this import?' : 'Remove this import and its days from your reports?'
        }
        confirmLabel={isUnderway(item) ? 'Stop it' : 'Remove'}
        onConfirm={() => remove.mutate()}
        pending={remove.isPending}
        error={remove.error}
      />
    </li>
  );
}
