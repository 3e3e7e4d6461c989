import type { CameraLive, CameraStreamStatus } from '@homesitter/contract';
import { Maximize, Minimize, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../../shared/ui/cn';
import type { PlaybackSupport } from './engine';
import { webrtcApi } from './liveApi';
import { LiveOverlay, type LiveOverlayKind } from './LiveOverlay';
import { useFullscreen } from './useFullscreen';
import { useLivePlayer, type LivePhase } from './useLivePlayer';
import type { WebRtcApi } from './webrtcSession';

export interface LivePlayerProps {
  cameraName: string;
  live: CameraLive;
  /** The camera's upstream as the camera list knows it (kept fresh over realtime). */
  streamStatus: CameraStreamStatus | null;
  streamError: string | null;
  /** Fresh signed URLs (`GET /live` again). */
  refresh: () => Promise<CameraLive | undefined>;
  /** Fill the parent (the fullscreen screen) instead of a 16:9 frame. */
  fill?: boolean;
  /** A button for the browser's fullscreen (off where the screen is fullscreen already). */
  fullscreenControl?: boolean;
  /** Tests: what the browser can play. */
  support?: PlaybackSupport;
  /** Tests: the server's WebRTC calls and a fake RTCPeerConnection. */
  webrtc?: WebRtcApi;
  createPeer?: () => RTCPeerConnection;
}

const controlClass =
  'flex size-10 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-brand-400';

function LiveFrame({ fill, children }: { fill?: boolean; children: ReactNode }) {
  return (
    <div
      className={cn(
        'relative w-full overflow-hidden bg-black',
        fill ? 'h-full' : 'aspect-video rounded-2xl ring-1 ring-slate-800',
      )}
    >
      {children}
    </div>
  );
}

function overlayFor(phase: LivePhase, status: CameraStreamStatus | null): LiveOverlayKind | null {
  if (status === 'private' || status === 'stopped') return status;
  if (phase === 'unsupported' || phase === 'failed' || phase === 'blocked') return phase;
  if (phase === 'reconnecting' || status === 'reconnecting') return 'reconnecting';
  if (phase === 'connecting') return 'connecting';
  return null;
}

/**
 * A stream camera's live picture, as close to real time as the network allows: muted autoplay (a tap
 * unmutes when the camera has sound), the state of the connection over the picture, and fullscreen.
 * Private mode and a stopped stream open no connection at all.
 */
export function LivePlayer(props: LivePlayerProps) {
  // A WebRTC camera is not pulled by the server: only its live answer knows whether it is private.
  const status =
    props.live.mode === 'webrtc'
      ? props.live.stream_status
      : (props.streamStatus ?? props.live.stream_status);
  if (status === 'private' || status === 'stopped') {
    return (
      <LiveFrame fill={props.fill}>
        <LiveOverlay kind={status} />
      </LiveFrame>
    );
  }
  return <LiveStream {...props} streamStatus={status} />;
}

function LiveStream({
  cameraName,
  live,
  streamStatus,
  streamError,
  refresh,
  fill,
  fullscreenControl = true,
  support,
  webrtc: givenWebrtc,
  createPeer,
}: LivePlayerProps) {
  const { t } = useTranslation('cameras');
  const containerRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const webrtc = useMemo(() => givenWebrtc ?? webrtcApi(cameraName), [givenWebrtc, cameraName]);
  const player = useLivePlayer({ videoRef, live, refresh, support, webrtc, createPeer });
  const fullscreen = useFullscreen(containerRef, videoRef);
  const [muted, setMuted] = useState(true);
  useEffect(() => {
    if (videoRef.current) videoRef.current.muted = muted;
  }, [muted]);

  const status = player.socketStatus ?? streamStatus;
  const overlay = overlayFor(player.phase, status);
  const notice = player.notice;
  const noticeText = notice
    ? notice.retryAfterS !== null
      ? t('live.rateLimited', { seconds: notice.retryAfterS })
      : t('live.rateLimitedStopped')
    : null;

  return (
    <div
      ref={containerRef}
      data-testid="live-player"
      data-engine={player.engine ?? 'none'}
      className={cn(
        'relative w-full overflow-hidden bg-black [&:fullscreen]:rounded-none',
        fill ? 'h-full' : 'aspect-video rounded-2xl ring-1 ring-slate-800',
      )}
    >
      <video
        ref={videoRef}
        muted
        playsInline
        autoPlay
        aria-label={t('live.label', { name: cameraName })}
        className="h-full w-full object-contain"
      />
      {overlay ? (
        <LiveOverlay
          kind={overlay}
          detail={noticeText ?? (overlay === 'reconnecting' ? streamError : null)}
          onRetry={player.retry}
          onPlay={player.play}
        />
      ) : (
        <span className="absolute top-3 left-3 rounded bg-red-600 px-1.5 py-0.5 text-xs font-bold tracking-wide text-white">
          {t('live.badge')}
        </span>
      )}
      <div className="absolute right-3 bottom-3 flex gap-2">
        {live.has_audio ? (
          <button
            type="button"
            className={controlClass}
            aria-pressed={!muted}
            aria-label={muted ? t('live.unmute') : t('live.mute')}
            onClick={() => setMuted((m) => !m)}
          >
            {muted ? (
              <VolumeX className="size-5" aria-hidden="true" />
            ) : (
              <Volume2 className="size-5" aria-hidden="true" />
            )}
          </button>
        ) : null}
        {fullscreenControl ? (
          <button
            type="button"
            className={controlClass}
            aria-label={fullscreen.active ? t('live.exitFullscreen') : t('live.fullscreen')}
            onClick={fullscreen.toggle}
          >
            {fullscreen.active ? (
              <Minimize className="size-5" aria-hidden="true" />
            ) : (
              <Maximize className="size-5" aria-hidden="true" />
            )}
          </button>
        ) : null}
      </div>
    </div>
  );
}
