import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/lib/api';
import { camerasKey } from '../api';

export const nestLinkKey = ['nest-link'] as const;

/** Whether this server offers Google Nest, and the linked account with its cameras. */
export function useNestLink() {
  return useQuery({
    queryKey: nestLinkKey,
    queryFn: async () => (await api.call('getNestLink')).data,
  });
}

/**
 * Link (or reconnect): the browser leaves for Google's consent page; Google sends it back to the server,
 * which lands it on the cameras page with the outcome.
 */
export function useStartNestLink(go: (url: string) => void = (url) => window.location.assign(url)) {
  return useMutation({
    mutationFn: async () => (await api.call('linkNest')).data.url,
    onSuccess: (url) => go(url),
  });
}

export function useUnlinkNest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => api.call('unlinkNest'),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: nestLinkKey }),
        queryClient.invalidateQueries({ queryKey: camerasKey }),
      ]);
    },
  });
}
