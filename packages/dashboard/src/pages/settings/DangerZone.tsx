/**
 * Deleting a site: typed confirmation of its domain, then 30 days in which it can be restored.
 * Only admins may; for anyone else the API's refusal is shown as it words it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { meQuery } from '../../api/account';
import { type DeletionScheduled, deleteSite } from '../../api/settings';
import type { Site } from '../../api/types';
import { Field, FormError } from '../../components/Form';
import { ScheduledForDeletion } from './ScheduledForDeletion';

export function DangerZone({ siteId, site }: { siteId: string; site: Site }) {
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const [typed, setTyped] = useState('');
  const [scheduled, setScheduled] = useState<DeletionScheduled | null>(null);
  const remove = useMutation({
    mutationFn: () => deleteSite(siteId, typed.trim()),
    onSuccess: (answer) => {
      setScheduled(answer);
      setTyped('');
      // The site's own read now answers 404: only the lists learn of the change.
      queryClient.invalidateQueries({ queryKey: ['dashboard-sites'] });
      queryClient.invalidateQueries({ queryKey: ['sites-with-deleted'] });
    },
  });
  if (scheduled) {
    const { snippet_key, domain, name } = site;
    return (
      <ScheduledForDeletion
        site={{ uuid: siteId, snippet_key, domain, name, deleted_at: scheduled.requested_at }}
        effectiveAt={scheduled.effective_at}
      />
    );
  }
  return (
    <form
      className="card danger-zone"
      aria-labelledby="danger-title"
      onSubmit={(event) => {
        event.preventDefault();
        remove.mutate();
      }}
    >
      <h2 id="danger-title">Delete this site</h2>
      <p className="small">
        Collection stops at once. The site and all its data are erased after 30 days; until then an admin can
        restore it.
      </p>
      {me.data?.role === 'member' && (
        <p className="notice small">Only an admin of the account can delete a site.</p>
      )}
      <FormError error={remove.error} />
      <Field
        label={`Type ${site.domain} to confirm`}
        name="confirm_domain"
        autoComplete="off"
        spellCheck={false}
        required
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
      <button type="submit" className="button danger" disabled={!typed.trim() || remove.isPending}>
        Delete the site
      </button>
    </form>
  );
}
