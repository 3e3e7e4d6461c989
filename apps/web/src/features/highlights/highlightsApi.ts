import { STALE_TIME_MS } from '@homesitter/contract/runtime';
import type { ActivitySummary } from '@homesitter/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/lib/api';
import { useSession } from '../../shared/lib/useSession';

export const highlightsKey = (date: string) => ['activity-summaries', date] as const;

/** Today as YYYY-MM-DD in the browser's own time zone. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The day's summaries: the daily one (if written yet) and the hourly ones. */
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
