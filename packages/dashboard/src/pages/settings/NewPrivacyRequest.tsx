/**
 * Makes an access or erasure request about one person. An erasure cannot be undone, so it asks
 * once more in place, in words: what goes, what stays, and that an access request shows first
 * what matches.
 */
import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  createPrivacyRequest,
  type NewPrivacyRequest as NewRequest,
  type PrivacyRequest,
  type PrivacyRequestType,
  privacyRequestsKey,
  REQUEST_TYPES,
  requestErrorWords,
  SUBJECT_KINDS,
  type SubjectKind,
} from '../../api/privacy';
import { Field, FormError } from '../../components/Form';

type Pages = InfiniteData<{ requests: PrivacyRequest[]; next_cursor: string | null }>;

export function NewPrivacyRequest({ siteId }: { siteId: string }) {
  const queryClient = useQueryClient();
  const [type, setType] = useState<PrivacyRequestType>('access');
  const [kind, setKind] = useState<SubjectKind>('email');
  const [value, setValue] = useState('');
  const [isConfirming, setConfirming] = useState(false);
  const create = useMutation({
    mutationFn: (body: NewRequest) => createPrivacyRequest(siteId, body),
    onSuccess: (created) => {
      setValue('');
      setConfirming(false);
      // The next request is most often an access one: erasure is never the form's standing choice.
      setType('access');
      // At the top of the list at once; the refetch then brings the list up to date.
      queryClient.setQueryData<Pages>(privacyRequestsKey(siteId), (data) => {
        const [first, ...rest] = data?.pages ?? [];
        if (!data || !first) return data;
        return { ...data, pages: [{ ...first, requests: [created, ...first.requests] }, ...rest] };
      });
      queryClient.invalidateQueries({ queryKey: privacyRequestsKey(siteId) });
    },
  });
  const subject = SUBJECT_KINDS.find((s) => s.kind === kind) ?? SUBJECT_KINDS[0];
  const valueLabel = subject?.label ?? 'Id';
  const send = () => create.mutate({ type, subject: { kind, value: value.trim() } });
  return (
    <form
      className="card"
      aria-labelledby="privacy-title"
      onSubmit={(event) => {
        event.preventDefault();
        if (type === 'erasure') setConfirming(true);
        else send();
      }}
    >
      <h2 id="privacy-title">Privacy requests</h2>
      <p className="small muted">
        When someone asks what you hold about them, or asks you to delete it, answer here with one id they
        gave you or that you can look up. Touchtrail follows identity links from it to every visitor id and
        sign-in of the same person, as attribution does.
      </p>
      <FormError error={requestErrorWords(create.error, valueLabel)} />
      <fieldset>
        <legend>What does the person ask for?</legend>
        {REQUEST_TYPES.map((choice) => (
          <label className="choice" key={choice.type}>
            <input
              type="radio"
              name="type"
              value={choice.type}
              checked={type === choice.type}
              onChange={() => {
                setType(choice.type);
                setConfirming(false);
              }}
            />
            <span>{choice.label}</span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Which id do you have?</legend>
        {SUBJECT_KINDS.map((choice) => (
          <label className="choice" key={choice.kind}>
            <input
              type="radio"
              name="kind"
              value={choice.kind}
              checked={kind === choice.kind}
              onChange={() => setKind(choice.kind)}
            />
            <span>
              {choice.label}
              <span className="small muted">{choice.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <Field
        label={valueLabel}
        name="value"
        type={kind === 'email' ? 'email' : 'text'}
        autoComplete="off"
        spellCheck={false}
        required
        maxLength={320}
        placeholder={kind === 'handle' ? 'vh_…' : undefined}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setConfirming(false);
        }}
      />
      {isConfirming ? (
        <ConfirmErasure
          kind={valueLabel.toLowerCase()}
          pending={create.isPending}
          onConfirm={send}
          onAccessFirst={() => {
            setType('access');
            setConfirming(false);
          }}
          onCancel={() => setConfirming(false)}
        />
      ) : (
        <button
          type="submit"
          className={type === 'erasure' ? 'button danger' : 'button primary'}
          disabled={create.isPending || value.trim() === ''}
        >
          {type === 'erasure' ? 'Delete this person’s data…' : 'Get a copy of their data'}
        </button>
      )}
    </form>
  );
}

/** The erasure's question, brought into view and focus: what is deleted, what stays. */
function ConfirmErasure(props: {
  kind: string;
  pending: boolean;
  onConfirm: () => void;
  onAccessFirst: () => void;
  onCancel: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a question with its answers, as ConfirmAction asks
    <div
      className="notice"
      style={{ borderColor: 'var(--bad)' }}
      role="group"
      aria-labelledby="erasure-question"
      tabIndex={-1}
      ref={box}
    >
      <p id="erasure-question" style={{ marginTop: 0 }}>
        <strong>Delete everything stored about the person with this {props.kind}?</strong> This cannot be
        undone.
      </p>
      <ul className="small">
        <li>Deleted: their visits, events, identity links and visitor ids on this site.</li>
        <li>
          Kept: their payments, with amounts and refunds, for your books, but with no link to them. Daily
          totals stay, so reports over past days do not change.
        </li>
        <li>
          Not sure who this id matches? A computer two people share ties them together: make an access request
          first and check what it finds.
        </li>
      </ul>
      <div className="row">
        <button type="button" className="button danger" disabled={props.pending} onClick={props.onConfirm}>
          {props.pending ? 'Sending…' : 'Delete their data'}
        </button>
        <button type="button" className="button" onClick={props.onAccessFirst}>
          Make an access request first
        </button>
        <button type="button" className="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
