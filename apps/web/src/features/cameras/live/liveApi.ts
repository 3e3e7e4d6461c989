import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/lib/api';
import { msUntil } from './liveUrl';

export const cameraLiveKey = (name: string) => ['camera-live', name.toLowerCase()] as const;

/** Signed live URLs are asked for again this long before they end (they last 10 minutes). */
const REFRESH_BEFORE_EXPIRY_MS = 60_000;
const MIN_REFRESH_MS = 5_000;

/**
 * What the live view needs (`GET /live`): the socket and playlist of a stream camera, or the latest snapshot
 * of an upload camera. The signed URLs are refreshed a minute before they expire; an open socket stays open.
 */
export function useCameraLive(name: string, enabled = true) {
  return useQuery({
    queryKey: cameraLiveKey(name),
    queryFn: async () => (await api.call('getCameraLive', { params: { name } })).data,
    enabled,
    staleTime: (query) =>
      query.state.data ? Math.max(0, msUntil(query.state.data.expires_at) - REFRESH_BEFORE_EXPIRY_MS) : 0,
    refetchInterval: (query) =>
      query.state.data
        ? Math.max(MIN_REFRESH_MS, msUntil(query.state.data.expires_at) - REFRESH_BEFORE_EXPIRY_MS)
        : false,
  });
}
