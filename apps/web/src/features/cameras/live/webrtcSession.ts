import type { WebRtcSession } from '@homesitter/contract';
import type { LiveSession, LiveSessionEvent } from './mseSession';

/** A stream is extended (or replaced) this long before Google ends it. */
export const WEBRTC_RENEW_BEFORE_MS = 60_000;
/** Never sooner than this after a stream began, whatever the clocks say. */
const MIN_RENEW_DELAY_MS = 10_000;
/** How long the browser may gather its candidates before the offer goes anyway (Google needs none of them). */
const GATHER_WAIT_MS = 2_000;
/** Automatic attempts after Google's rate limit before the viewer is left with Retry. */
const RATE_LIMIT_ATTEMPTS = 3;

export type WebRtcSessionEvent =
  | LiveSessionEvent
  /** Google limits the camera now: the message, and when the session tries again by itself (null: it won't). */
  | { type: 'notice'; message: string; retryAfterS: number | null };

/** The server's side of a Nest camera's WebRTC stream (POST, extend, DELETE …/live/webrtc). */
export interface WebRtcApi {
  start(offerSdp: string): Promise<WebRtcSession>;
  extend(sessionId: string): Promise<{ expires_at: string }>;
  stop(sessionId: string): void;
}

/** What the server's refusals carry (`ApiError` of shared/lib/http.ts). */
interface Refusal {
  status?: number;
  message?: string;
  retryAfterSeconds?: number;
}

export interface WebRtcSessionOptions {
  video: Pick<HTMLVideoElement, 'srcObject' | 'play' | 'paused'>;
  api: WebRtcApi;
  onEvent: (event: WebRtcSessionEvent) => void;
  /** Tests: a fake RTCPeerConnection. */
  createPeer?: () => RTCPeerConnection;
  now?: () => number;
}

interface Stream {
  pc: RTCPeerConnection;
  sessionId: string | null;
  timer?: ReturnType<typeof setTimeout>;
}

function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      pc.removeEventListener('icegatheringstatechange', check);
      resolve();
    };
    const check = () => {
      if (pc.iceGatheringState === 'complete') done();
    };
    const timer = setTimeout(done, GATHER_WAIT_MS);
    pc.addEventListener('icegatheringstatechange', check);
  });
}

/**
 * A Nest camera's live view over WebRTC: the browser makes the offer Google requires (audio and video
 * recvonly, then a data channel), the server passes it to Google and hands back the answer, and the video
 * element plays Google's stream directly. A minute before the stream ends it is extended, or, where the camera
 * cannot extend (battery cameras) or the server says 409, a new stream is made and swapped in once its picture
 * runs, so the viewer sees no black gap. Closing stops the stream at the server.
 */
export function startWebRtcSession(options: WebRtcSessionOptions): LiveSession {
  const { video, api, onEvent } = options;
  const createPeer = options.createPeer ?? (() => new RTCPeerConnection());
  const now = options.now ?? Date.now;
  let closed = false;
  let current: Stream | null = null;
  /** Every stream not ended yet, the one being made included. */
  const open = new Set<Stream>();
  let rateLimited = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  function end(stream: Stream) {
    if (!open.delete(stream)) return;
    clearTimeout(stream.timer);
    stream.pc.close();
    if (stream.sessionId) api.stop(stream.sessionId);
  }

  function schedule(stream: Stream, session: { expires_at: string; extendable: boolean }) {
    const delay = Math.max(
      MIN_RENEW_DELAY_MS,
      Date.parse(session.expires_at) - now() - WEBRTC_RENEW_BEFORE_MS,
    );
    stream.timer = setTimeout(() => {
      if (closed || current !== stream) return;
      if (!session.extendable) return void connect();
      api.extend(stream.sessionId!).then(
        (next) => schedule(stream, { expires_at: next.expires_at, extendable: true }),
        // 409 (a battery camera, or the stream ended) and anything else: a new stream takes over.
        () => void connect(),
      );
    }, delay);
  }

  /** A new stream; the one playing (if any) keeps playing until the new one's picture arrives. */
  async function connect(): Promise<void> {
    const pc = createPeer();
    const stream: Stream = { pc, sessionId: null };
    open.add(stream);
    const previous = current;
    pc.addTransceiver('audio', { direction: 'recvonly' });
    pc.addTransceiver('video', { direction: 'recvonly' });
    // Google requires a data channel in the offer, after audio and video.
    pc.createDataChannel('dataSendChannel');
    pc.addEventListener('track', (event) => {
      if (closed || event.track.kind !== 'video') return;
      video.srcObject = event.streams[0] ?? new MediaStream([event.track]);
      current = stream;
      if (previous && previous !== stream) end(previous);
      rateLimited = 0;
      video.play().then(
        () => onEvent({ type: 'opened' }),
        (error: unknown) => {
          if (closed) return;
          if (error instanceof DOMException && error.name === 'NotAllowedError') onEvent({ type: 'blocked' });
          else onEvent({ type: 'opened' });
        },
      );
    });
    pc.addEventListener('connectionstatechange', () => {
      if (closed || current !== stream) return;
      if (pc.connectionState === 'failed') onEvent({ type: 'failed', reason: 'socket' });
    });
    try {
      await pc.setLocalDescription(await pc.createOffer());
      await gathered(pc);
      if (closed) return end(stream);
      const session = await api.start(pc.localDescription!.sdp);
      stream.sessionId = session.session_id;
      if (closed) return end(stream);
      await pc.setRemoteDescription({ type: 'answer', sdp: session.answer_sdp });
      if (!previous) current = stream;
      schedule(stream, session);
    } catch (error) {
      end(stream);
      if (closed) return;
      const refusal = error as Refusal;
      if (refusal.status === 429 && refusal.retryAfterSeconds) {
        rateLimited += 1;
        const again = rateLimited < RATE_LIMIT_ATTEMPTS ? refusal.retryAfterSeconds : null;
        onEvent({ type: 'notice', message: refusal.message ?? '', retryAfterS: again });
        if (again !== null) retryTimer = setTimeout(() => void connect(), again * 1000);
        return;
      }
      // A replacement that failed leaves the old stream playing until Google ends it.
      if (previous && current === previous) return;
      onEvent({ type: 'failed', reason: 'socket' });
    }
  }

  void connect();
  return {
    close() {
      closed = true;
      clearTimeout(retryTimer);
      for (const stream of [...open]) end(stream);
      video.srcObject = null;
    },
  };
}
