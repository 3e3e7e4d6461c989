import type { CameraLive, CameraStreamStatus } from '@homesitter/contract';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { browserSupport, pickEngines, type PlaybackSupport } from './engine';
import { startHlsSession } from './hlsSession';
import { msUntil, toWebSocketUrl } from './liveUrl';
import { browserMse, startMseSession, type LiveSession } from './mseSession';
import { startWebRtcSession, type WebRtcApi, type WebRtcSessionEvent } from './webrtcSession';

/** What the viewer sees of the connection (the camera's own upstream state comes separately). */
export type LivePhase = 'connecting' | 'playing' | 'reconnecting' | 'blocked' | 'failed' | 'unsupported';

/** A socket address this close to its end is replaced before it is used. */
const URL_EXPIRY_MARGIN_MS = 30_000;

export interface LivePlayerOptions {
  videoRef: RefObject<HTMLVideoElement | null>;
  live: CameraLive;
  /** Fresh signed URLs (`GET /live` again). */
  refresh: () => Promise<CameraLive | undefined>;
  /** What the browser can play; read from the browser when not given (tests pass their own). */
  support?: PlaybackSupport;
  /** The server's WebRTC calls for this camera (`mode: webrtc`). */
  webrtc?: WebRtcApi;
  /** Tests: a fake RTCPeerConnection. */
  createPeer?: () => RTCPeerConnection;
}

/** Why the stream cannot start now (Google's rate limit), and whether the player tries again by itself. */
export interface LiveNotice {
  message: string;
  retryAfterS: number | null;
}

/**
 * Plays a stream camera: MSE over the socket when possible, else HLS; a failed way falls through to the
 * next, and "Retry" starts again from the best. Everything opened is closed on unmount.
 */
export function useLivePlayer({
  videoRef,
  live,
  refresh,
  support: given,
  webrtc,
  createPeer,
}: LivePlayerOptions) {
  const [support] = useState(() => given ?? browserSupport(browserMse()));
  const [attempt, setAttempt] = useState({ run: 0, index: 0 });
  const key = `${attempt.run}:${attempt.index}`;
  const [report, setReport] = useState({ key: '', phase: 'connecting' as LivePhase });
  const [server, setServer] = useState<{ key: string; status: CameraStreamStatus } | null>(null);
  const [notice, setNotice] = useState<{ key: string; notice: LiveNotice } | null>(null);
  const latest = useRef({ live, refresh, webrtc, createPeer });
  useEffect(() => {
    latest.current = { live, refresh, webrtc, createPeer };
  });

  const engines = pickEngines(live, support);
  const engine = engines[attempt.index];
  const hlsUrl = engine === 'hls' || engine === 'native-hls' ? live.hls_url : null;

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !engine) return;
    const { run, index } = attempt;
    const set = (phase: LivePhase) => setReport({ key: `${run}:${index}`, phase });
    const onEvent = (event: WebRtcSessionEvent) => {
      if (event.type === 'notice') {
        setNotice({ key: `${run}:${index}`, notice: event });
        set(event.retryAfterS === null ? 'failed' : 'connecting');
        return;
      }
      if (event.type === 'opened') {
        setNotice(null);
        set(video.paused ? 'connecting' : 'playing');
      } else if (event.type === 'reconnecting') set('reconnecting');
      else if (event.type === 'blocked') set('blocked');
      else if (event.type === 'status') setServer({ key: `${run}:${index}`, status: event.status });
      else setAttempt((a) => (a.run === run && a.index === index ? { run, index: index + 1 } : a));
    };
    const onPlaying = () => set('playing');
    video.addEventListener('playing', onPlaying);

    let session: LiveSession;
    const webrtcApi = latest.current.webrtc;
    if (engine === 'webrtc' && webrtcApi) {
      session = startWebRtcSession({
        video,
        api: webrtcApi,
        onEvent,
        createPeer: latest.current.createPeer,
      });
    } else if (engine === 'mse' && support.mse) {
      let connects = 0;
      const getUrl = async () => {
        let current = latest.current.live;
        // A Nest camera's session may have ended under the viewer (its stream stopped or refused): a
        // reconnect asks GET /live again, which starts a new one or says why not (its notice).
        const reconnectingNest = connects++ > 0 && current.connection_type === 'nest';
        if (reconnectingNest || msUntil(current.expires_at) < URL_EXPIRY_MARGIN_MS)
          current = (await latest.current.refresh()) ?? current;
        if (!current.mse_url) throw new Error('No live socket for this camera');
        return toWebSocketUrl(current.mse_url);
      };
      session = startMseSession({
        video,
        mimeType: latest.current.live.mime_type ?? '',
        getUrl,
        onEvent,
        env: support.mse,
      });
    } else {
      session = startHlsSession({ video, url: hlsUrl ?? '', native: engine === 'native-hls', onEvent });
    }
    return () => {
      video.removeEventListener('playing', onPlaying);
      session.close();
    };
  }, [videoRef, engine, attempt, hlsUrl, support]);

  const phase: LivePhase = !engine
    ? attempt.index === 0
      ? 'unsupported'
      : 'failed'
    : report.key === key
      ? report.phase
      : 'connecting';

  // A camera whose stream is (re)starting fails every way for a moment: try again by itself, more slowly
  // each time (3 s doubling to 30 s), the Retry button meanwhile.
  const currentNotice = notice?.key === key ? notice.notice : null;
  // A notice (Google's rate limit) has its own wait; the viewer retries by hand after the last one.
  const failed = phase === 'failed' && !currentNotice;
  useEffect(() => {
    if (!failed) return;
    const timer = setTimeout(
      () => {
        void latest.current.refresh();
        setAttempt((a) => ({ run: a.run + 1, index: 0 }));
      },
      Math.min(30_000, 3_000 * 2 ** Math.min(attempt.run, 4)),
    );
    return () => clearTimeout(timer);
  }, [failed, attempt.run]);

  return {
    phase,
    engine: engine ?? null,
    /** Why the stream cannot start now (Google's rate limit), during this attempt. */
    notice: currentNotice,
    /** The latest `status` the socket reported during this attempt, if any. */
    socketStatus: server?.key === key ? server.status : null,
    retry: () => {
      void latest.current.refresh();
      setAttempt((a) => ({ run: a.run + 1, index: 0 }));
    },
    /** After the browser refused autoplay: a tap starts playback. */
    play: () => {
      const video = videoRef.current;
      if (video) void Promise.resolve(video.play()).catch(() => undefined);
    },
  };
}
