import type { CameraLive } from '@homesitter/contract';
import { useQueryClient } from '@tanstack/react-query';
import { CameraOff, EyeOff, Info } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRealtimeEvent } from '../../../shared/lib/useRealtime';
import { cn } from '../../../shared/ui/cn';
import { useProfile } from '../../user/profile';
import { formatDateTime } from '../format';
import { SnapshotImage } from '../SnapshotImage';
import { cameraLiveKey } from './liveApi';

/**
 * The "live" view of an upload camera: it sends events, not a stream, so its newest snapshot stands in,
 * with its time, and is replaced in place when the camera sends a new event.
 */
export function SnapshotView({
  cameraName,
  live,
  lastActivity = null,
  isPrivate = false,
  fill = false,
}: {
  cameraName: string;
  live: Pick<CameraLive, 'snapshot_url' | 'snapshot_date_time_utc'>;
  /** The camera's last event: without a snapshot, it tells "no activity yet" from "no snapshot". */
  lastActivity?: string | null;
  /** Private mode keeps no picture: without one it says "Private", as the camera's card does. */
  isPrivate?: boolean;
  fill?: boolean;
}) {
  const { t, i18n } = useTranslation('cameras');
  const timeZone = useProfile().data?.timezone;
  const queryClient = useQueryClient();
  useRealtimeEvent('ActivityCreated', (event) => {
    if (!event.camera_name || event.camera_name.toLowerCase() === cameraName.toLowerCase())
      void queryClient.invalidateQueries({ queryKey: cameraLiveKey(cameraName) });
  });
  const time = live.snapshot_date_time_utc
    ? formatDateTime(live.snapshot_date_time_utc, i18n.language, timeZone)
    : null;
  const explanation = (
    <p className={cn('flex items-start gap-2 text-sm', fill ? 'text-slate-300' : 'text-slate-400')}>
      <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {t('live.snapshotExplain')}
    </p>
  );

  if (!live.snapshot_url) {
    return (
      <div className={cn('flex flex-col gap-3', fill && 'h-full')}>
        <div
          className={cn(
            'flex w-full flex-col items-center justify-center gap-3 bg-slate-950 p-6 text-center',
            fill ? 'flex-1' : 'aspect-video rounded-2xl ring-1 ring-slate-800',
          )}
        >
          {isPrivate ? (
            <>
              <EyeOff className="size-10 text-amber-300" aria-hidden="true" />
              <p className="font-medium text-amber-200">{t('status.private')}</p>
              <p className="max-w-sm text-sm text-slate-400">{t('live.private')}</p>
            </>
          ) : (
            <>
              <CameraOff className="size-10 text-slate-500" aria-hidden="true" />
              <p className="font-medium text-slate-200">
                {lastActivity ? t('card.noSnapshot') : t('card.noActivity')}
              </p>
              <p className="max-w-sm text-sm text-slate-400">{t('detail.liveEmpty')}</p>
              <Link
                to="/settings/camera-setup"
                className="text-sm text-brand-400 underline-offset-4 hover:underline"
              >
                {t('cameraSetup')}
              </Link>
            </>
          )}
        </div>
        {explanation}
      </div>
    );
  }

  return (
    <figure className={cn('flex flex-col gap-3', fill && 'h-full')}>
      <div
        className={cn(
          'relative w-full overflow-hidden bg-black',
          fill ? 'flex-1' : 'aspect-video rounded-2xl ring-1 ring-slate-800',
        )}
      >
        <SnapshotImage
          src={live.snapshot_url}
          eager
          alt={
            time
              ? t('card.snapshotAlt', { name: cameraName, time })
              : t('card.snapshotAltNoTime', { name: cameraName })
          }
          fit="contain"
          className="h-full w-full"
        />
        {time ? (
          <span className="absolute top-3 left-3 rounded bg-black/70 px-2 py-1 text-xs text-slate-100">
            {t('live.snapshotTime', { time })}
          </span>
        ) : null}
      </div>
      <figcaption>{explanation}</figcaption>
    </figure>
  );
}
