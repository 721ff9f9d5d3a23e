import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type SiteChange, updateSite } from '../../api/settings';

/** Saves a change of the site and puts the answer (the whole site) in the cache. */
export function useUpdateSite(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: SiteChange) => updateSite(siteId, change),
    onSuccess: (site) => {
      queryClient.setQueryData(['site', siteId], site);
      queryClient.invalidateQueries({ queryKey: ['dashboard-sites'] });
      queryClient.invalidateQueries({ queryKey: ['stats'] });
    },
  });
}
