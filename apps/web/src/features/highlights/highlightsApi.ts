import { STALE_TIME_MS } from '@homesitter/contract/runtime';
import type { ActivitySummary } from '@homesitter/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/lib/api';
import { useRealtimeEvent } from '../../shared/lib/useRealtime';
import { useSession } from '../../shared/lib/useSession';

export const highlightsKey = (date: string) => ['activity-summaries', date] as const;

/** The day's summaries (YYYY-MM-DD in the profile's time zone): the daily ones (if written yet) and the hourly ones. */
export function useActivitySummaries(date: string) {
  const { status, isVerified } = useSession();
  return useQuery({
    queryKey: highlightsKey(date),
    queryFn: async (): Promise<ActivitySummary[]> =>
      (await api.call('getActivitySummaries', { query: { date } })).data,
    enabled: status === 'signedIn' && isVerified,
    staleTime: STALE_TIME_MS,
  });
}

/**
 * While the highlights are shown: when the server writes a day's summaries (`SummariesUpdated`, soon after
 * each new event and every hour), that day is fetched again, so new events appear without a reload.
 */
export function useHighlightsRealtime() {
  const queryClient = useQueryClient();
  useRealtimeEvent('SummariesUpdated', (event) => {
    void queryClient.invalidateQueries({ queryKey: highlightsKey(event.date) });
  });
}
