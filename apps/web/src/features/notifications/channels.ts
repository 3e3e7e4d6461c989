import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/lib/api';

/** What this server can deliver alerts by (GET /api/push/channels); it changes only with the server's setup. */
export function useDeliverableChannels() {
  return useQuery({
    queryKey: ['notification-channels'],
    queryFn: async () => (await api.call('getNotificationChannels')).data,
    staleTime: Infinity,
  });
}
