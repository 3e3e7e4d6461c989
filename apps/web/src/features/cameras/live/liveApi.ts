import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/lib/api';
import { optionalServerUrl } from '../../../shared/lib/apiOrigin';
import { msUntil } from './liveUrl';
import type { WebRtcApi } from './webrtcSession';

export const cameraLiveKey = (name: string) => ['camera-live', name.toLowerCase()] as const;

/** Signed live URLs are asked for again this long before they end (they last 10 minutes). */
const REFRESH_BEFORE_EXPIRY_MS = 60_000;
const MIN_REFRESH_MS = 5_000;

/**
 * What the live view needs (`GET /live`): the socket and playlist of a stream camera, or the latest snapshot
 * of an upload camera. The signed URLs are refreshed a minute before they expire; an open socket stays open.
 * An answer with a notice (the stream cannot start now) is asked for again after its `retry_after_s`.
 * The server hands out the socket and playlist as paths on itself; they are resolved here, once, against the
 * server origin (unchanged in a browser, the configured server in the phone apps: shared/lib/apiOrigin.ts).
 */
export function useCameraLive(name: string, enabled = true) {
  return useQuery({
    queryKey: cameraLiveKey(name),
    queryFn: async () => {
      const live = (await api.call('getCameraLive', { params: { name } })).data;
      return { ...live, mse_url: optionalServerUrl(live.mse_url), hls_url: optionalServerUrl(live.hls_url) };
    },
    enabled,
    staleTime: (query) => {
      const data = query.state.data;
      if (data?.retry_after_s != null) return data.retry_after_s * 1000;
      return data ? Math.max(0, msUntil(data.expires_at) - REFRESH_BEFORE_EXPIRY_MS) : 0;
    },
    refetchInterval: (query) => {
      const data = query.state.data;
      // A stream that cannot start now (Google's rate limit on a Nest camera): asked again when the
      // server says, never sooner.
      if (data?.retry_after_s != null) return data.retry_after_s * 1000;
      return data ? Math.max(MIN_REFRESH_MS, msUntil(data.expires_at) - REFRESH_BEFORE_EXPIRY_MS) : false;
    },
  });
}

/**
 * A Nest camera's WebRTC calls. Stopping is best effort: a stream the server does not hear about ends by
 * itself when it expires (a closing page cannot always send it).
 */
export function webrtcApi(name: string): WebRtcApi {
  return {
    start: async (offerSdp) =>
      (await api.call('startCameraWebRtc', { params: { name }, body: { offer_sdp: offerSdp } })).data,
    extend: async (sessionId) => (await api.call('extendCameraWebRtc', { params: { name, sessionId } })).data,
    stop: (sessionId) => {
      void api.call('stopCameraWebRtc', { params: { name, sessionId } }).catch(() => undefined);
    },
  };
}
