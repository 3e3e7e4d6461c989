import { NestProviderError } from './nest.google.js';

/** The first wait after Google refused a camera's live stream, doubled at each refusal that follows. */
const INITIAL_MS = 10_000;
const MAX_MS = 120_000;
/** Google's own Retry-After is honoured when longer, up to this (a stray huge value must not lock a camera out). */
const MAX_RETRY_AFTER_MS = 300_000;

export interface LiveBackoff {
  /** Until when (ms since the epoch) the camera's live commands are not sent to Google. */
  until: number;
  delayMs: number;
  /** Google's rate limit (429), or another refusal. */
  rateLimited: boolean;
}

/**
 * Google limits live-stream commands per device (about 5 a minute, then 429 `RESOURCE_EXHAUSTED`). One
 * back-off per camera serves both live views, RTSP (nest.live.ts) and WebRTC (nest.webrtc.ts): 10 s, doubling
 * at each refusal up to 2 minutes, or Google's `Retry-After` when longer (at most 5 minutes). A stream Google
 * starts clears it. Nothing here retries: the viewer is told how long to wait, and asks again.
 */
export function createLiveBackoffs(now: () => number) {
  const backoffs = new Map<string, LiveBackoff>();

  return {
    /** Google refused a command of this camera: the wait starts (or doubles). */
    refused(cameraId: string, err: unknown): LiveBackoff {
      const previous = backoffs.get(cameraId);
      const doubled = previous ? Math.min(previous.delayMs * 2, MAX_MS) : INITIAL_MS;
      const given =
        err instanceof NestProviderError && err.retryAfterS
          ? Math.min(err.retryAfterS * 1000, MAX_RETRY_AFTER_MS)
          : 0;
      const delayMs = Math.max(doubled, given);
      const backoff = {
        until: now() + delayMs,
        delayMs,
        rateLimited: err instanceof NestProviderError && err.status === 429,
      };
      backoffs.set(cameraId, backoff);
      return backoff;
    },

    /** The wait in force for a camera now, if any (a passed one is kept: the next refusal doubles it). */
    current(cameraId: string): LiveBackoff | undefined {
      const backoff = backoffs.get(cameraId);
      return backoff && backoff.until > now() ? backoff : undefined;
    },

    /** Whole seconds left of a wait, at least 1 (what the viewer is told). */
    secondsLeft(backoff: LiveBackoff): number {
      return Math.max(1, Math.ceil((backoff.until - now()) / 1000));
    },

    /** Google started a stream for the camera: the next refusal starts again at 10 s. */
    succeeded(cameraId: string): void {
      backoffs.delete(cameraId);
    },
  };
}
export type LiveBackoffs = ReturnType<typeof createLiveBackoffs>;
