import type { Camera } from '@homesitter/contract';
import { Clock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isNativeApp } from '../../../shared/lib/native';
import { choosePlayer } from '../../../shared/native/player';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { NativeStreamButton } from '../../../shared/ui/NativeVideo';
import { Spinner } from '../../../shared/ui/Spinner';
import { cn } from '../../../shared/ui/cn';
import { ConfigurationProgress } from '../add/ConfigurationProgress';
import { useIsPrivate } from '../useIsPrivate';
import { useCameraLive } from './liveApi';
import { LivePlayer } from './LivePlayer';
import { SnapshotView } from './SnapshotView';

type LiveCamera = Pick<
  Camera,
  | 'name'
  | 'last_activity_date_time_utc'
  | 'connection_type'
  | 'configuration_status'
  | 'configuration_error'
  | 'configuration_error_code'
  | 'stream_status'
  | 'stream_error'
  | 'snapshot_url'
  | 'snapshot_date_time_utc'
  | 'settings'
>;

/**
 * What the camera shows live (docs/product.md §2 detail Live tab, view, fullscreen, preview): a stream camera's live
 * picture once it is configured (its configuration until then), an upload camera's latest snapshot. Inside
 * the iOS/Android apps the live stream opens in the phone's own player (HLS).
 */
export function CameraLiveView({
  camera,
  fill = false,
  fullscreenControl = true,
}: {
  camera: LiveCamera;
  fill?: boolean;
  fullscreenControl?: boolean;
}) {
  const { t } = useTranslation('cameras');
  // A Nest camera is set up by its Google link, not configured here: its live view is asked for at once.
  const isStream = camera.connection_type !== 'upload' && camera.connection_type !== 'nest';
  const ready = !isStream || camera.configuration_status === 'configured';
  const live = useCameraLive(camera.name, ready);
  // Private mode (the account's or the camera's own) shows as such at once, as the cards do, not only once
  // the server's stream status has followed, and never as a missing snapshot.
  const isPrivate = useIsPrivate(camera);
  const frame = cn(
    'flex w-full flex-col items-center justify-center gap-3 bg-slate-950 p-6 text-center',
    fill ? 'h-full' : 'aspect-video rounded-2xl ring-1 ring-slate-800',
  );

  if (!ready) {
    return (
      <div className={cn('rounded-2xl bg-slate-900 p-5 ring-1 ring-slate-800', fill && 'm-4')}>
        <ConfigurationProgress camera={camera} showSuccess={false} />
      </div>
    );
  }
  if (!live.data && !live.isError) {
    return (
      <div className={frame} role="status" aria-label={t('live.loading')}>
        <Spinner size="lg" className="text-brand-400" />
      </div>
    );
  }
  if (!live.data) {
    return (
      <div className={frame}>
        <Alert>{t('live.loadFailed')}</Alert>
        <Button variant="secondary" onClick={() => void live.refetch()}>
          {t('retry')}
        </Button>
      </div>
    );
  }
  if (live.data.mode === 'snapshot')
    return (
      <SnapshotView
        cameraName={camera.name}
        live={live.data}
        lastActivity={camera.last_activity_date_time_utc}
        isPrivate={isPrivate}
        fill={fill}
      />
    );
  if (live.data.notice) return <LiveNotice notice={live.data.notice} className={frame} />;
  // A Nest camera's stream runs only while it is watched: its state is the live answer's, not the list's.
  const streamStatus = isPrivate
    ? 'private'
    : camera.connection_type === 'nest'
      ? live.data.stream_status
      : camera.stream_status;
  const status = streamStatus ?? live.data.stream_status;
  // The phone's own player in the iOS/Android apps (HLS); private mode and a stopped stream show their state.
  if (
    status !== 'private' &&
    status !== 'stopped' &&
    live.data.hls_url &&
    choosePlayer(isNativeApp(), live.data.hls_url) === 'native'
  ) {
    return (
      <NativeStreamButton url={live.data.hls_url} title={camera.name} live fill={fill} autoOpen={fill} />
    );
  }
  return (
    <LivePlayer
      cameraName={camera.name}
      live={live.data}
      streamStatus={streamStatus}
      streamError={camera.stream_error}
      refresh={async () => (await live.refetch()).data}
      fill={fill}
      fullscreenControl={fullscreenControl}
    />
  );
}

/** Why the stream cannot start now, in the server's words (e.g. Google's rate limit); asked again later. */
function LiveNotice({ notice, className }: { notice: string; className: string }) {
  const { t } = useTranslation('cameras');
  return (
    <div className={className} role="status" data-testid="live-notice">
      <Clock className="size-9 text-slate-300" aria-hidden="true" />
      <p className="max-w-sm font-medium text-slate-100">{t('live.paused')}</p>
      <p className="max-w-sm text-sm text-slate-300">{notice}</p>
    </div>
  );
}
