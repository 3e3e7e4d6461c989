import { useDraggable } from '@dnd-kit/core';
import { CSS } from '@dnd-kit/utilities';
import type { Camera } from '@homesitter/contract';
import { CameraOff, GripVertical, VolumeX, EyeOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cn } from '../../shared/ui/cn';
import { useProfile } from '../user/profile';
import { formatDateTime } from './format';
import { PrivateDrops } from './PrivateDrops';
import { SnapshotImage } from './SnapshotImage';
import { NestMark } from './nest/NestMark';
import { StatusBadge } from './StatusBadge';
import { useIsPrivate } from './useIsPrivate';

/**
 * One camera in the list: its latest snapshot (an honest "No activity yet" until there is one), name, last
 * activity and status, and a handle to drag it to another property.
 */
export function CameraCard({ camera }: { camera: Camera }) {
  const { t, i18n } = useTranslation('cameras');
  const timeZone = useProfile().data?.timezone;
  const isPrivate = useIsPrivate(camera);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, isDragging } = useDraggable({
    id: camera.name,
  });
  const to = `/cameras/${encodeURIComponent(camera.name)}`;
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform) }}
      data-testid="camera-card"
      data-camera={camera.name}
      className={cn(
        'group relative overflow-hidden rounded-xl bg-slate-900 ring-1 ring-slate-800 transition-shadow',
        isDragging && 'z-20 shadow-2xl ring-2 ring-brand-400',
      )}
    >
      <Link to={to} className="block focus-visible:outline-2 focus-visible:outline-brand-400">
        {camera.snapshot_url ? (
          <SnapshotImage
            src={camera.snapshot_url}
            alt={
              camera.snapshot_date_time_utc
                ? t('card.snapshotAlt', {
                    name: camera.name,
                    time: formatDateTime(camera.snapshot_date_time_utc, i18n.language, timeZone),
                  })
                : t('card.snapshotAltNoTime', { name: camera.name })
            }
            className="aspect-video w-full"
            focus={camera.snapshot_focus}
          />
        ) : (
          <div className="flex aspect-video items-center justify-center bg-slate-950 text-slate-400">
            {isPrivate ? (
              // Private mode keeps no snapshot: waiting for one would be a promise that is not kept.
              <div className="flex flex-col items-center gap-2 text-xs text-amber-200">
                <EyeOff className="size-6" aria-hidden="true" />
                {t('status.private')}
              </div>
            ) : (
              <div className="flex flex-col items-center gap-2 text-xs">
                <CameraOff className="size-6" aria-hidden="true" />
                {camera.last_activity_date_time_utc ? t('card.noSnapshot') : t('card.noActivity')}
              </div>
            )}
          </div>
        )}
        {/* The status sits under the time, so the time is never cut short beside it. */}
        <div className="flex flex-col gap-2 p-3 pr-12">
          <div className="min-w-0">
            <h3 className="flex items-center gap-1.5 font-medium text-white">
              <span className="truncate">{camera.name}</span>
              {camera.connection_type === 'nest' ? <NestMark /> : null}
            </h3>
            <p className="mt-0.5 text-xs text-slate-400">
              {camera.last_activity_date_time_utc
                ? t('card.lastActivity', {
                    time: formatDateTime(camera.last_activity_date_time_utc, i18n.language, timeZone),
                  })
                : t('card.noActivity')}
            </p>
            <PrivateDrops camera={camera} className="mt-0.5 truncate" />
          </div>
          <div className="flex flex-wrap items-center gap-1.5">
            {camera.settings.is_private_mode_enabled ? (
              <EyeOff className="size-4 text-amber-300" aria-label={t('card.private')} />
            ) : null}
            {camera.settings.is_muted ? (
              <VolumeX className="size-4 text-slate-400" aria-label={t('card.muted')} />
            ) : null}
            <StatusBadge camera={camera} />
          </div>
        </div>
      </Link>
      <button
        type="button"
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        aria-label={t('card.dragHandle', { name: camera.name })}
        className="absolute right-2 bottom-2.5 flex size-9 cursor-grab touch-none items-center justify-center rounded-lg text-slate-400 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400 active:cursor-grabbing"
      >
        <GripVertical className="size-5" aria-hidden="true" />
      </button>
    </li>
  );
}
