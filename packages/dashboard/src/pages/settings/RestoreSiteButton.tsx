/** Cancels a site's scheduled deletion; the sites list then shows it among the live ones again. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { restoreSite } from '../../api/settings';
import { FormError } from '../../components/Form';

export function RestoreSiteButton({ uuid, domain }: { uuid: string; domain: string }) {
  const queryClient = useQueryClient();
  const restore = useMutation({
    mutationFn: () => restoreSite(uuid),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['dashboard-sites'] }),
        queryClient.invalidateQueries({ queryKey: ['sites-with-deleted'] }),
        queryClient.invalidateQueries({ queryKey: ['site', uuid] }),
      ]),
  });
  return (
    <span className="restore">
      <button
        type="button"
        className="button"
        aria-label={`Restore ${domain}`}
        disabled={restore.isPending}
        onClick={() => restore.mutate()}
      >
        Restore
      </button>
      <FormError error={restore.error} />
    </span>
  );
}
