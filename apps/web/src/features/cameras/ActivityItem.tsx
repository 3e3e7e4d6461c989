import type { Activity } from '@homesitter/contract';
import { Images, Play } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { focusStyle } from '../../shared/lib/focus';
import { NoPicture } from '../../shared/ui/NoPicture';
import { formatDuration } from './format';

/** One past event in a camera's list: its picture (a button that opens it), time and description. */
export function ActivityItem({
  activity,
  when,
  onOpen,
}: {
  activity: Activity;
  /** The event's time in the user's time zone. */
  when: string;
  onOpen: () => void;
}) {
  const { t } = useTranslation('cameras');
  const isClip = Boolean(activity.hls_url ?? activity.video_url);
  const description =
    activity.activity_description_in_preferred_language ?? activity.activity_description ?? null;
  const extraImages = activity.image_urls.length;
  // An event that reached the server after its picture had expired (Nest): a tile that says so.
  const pictureless = activity.media_kind === 'none' && !isClip && !activity.thumbnail_image_url;
  return (
    <article
      data-testid="activity"
      data-activity={activity.activity_uuid}
      className="flex gap-3 rounded-xl bg-slate-900 p-2 ring-1 ring-slate-800"
    >
      <button
        type="button"
        onClick={onOpen}
        aria-label={t(isClip ? 'past.play' : pictureless ? 'past.openEvent' : 'past.open', { time: when })}
        className="relative aspect-video w-36 shrink-0 overflow-hidden rounded-lg bg-black focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400 sm:w-44"
      >
        {activity.thumbnail_image_url ? (
          <img
            src={activity.thumbnail_image_url}
            alt=""
            loading="lazy"
            className="size-full object-cover"
            style={focusStyle(activity.focus)}
          />
        ) : pictureless ? (
          <NoPicture className="size-full" />
        ) : null}
        {isClip ? (
          <span className="absolute inset-0 flex items-center justify-center">
            <span className="rounded-full bg-black/60 p-2">
              <Play className="size-5 fill-white text-white" aria-hidden="true" />
            </span>
          </span>
        ) : null}
        {isClip && activity.duration_seconds !== null ? (
          <span className="absolute right-1 bottom-1 rounded bg-black/70 px-1.5 text-xs text-white">
            {formatDuration(activity.duration_seconds)}
          </span>
        ) : null}
        {!isClip && extraImages > 1 ? (
          <span className="absolute right-1 bottom-1 inline-flex items-center gap-1 rounded bg-black/70 px-1.5 text-xs text-white">
            <Images className="size-3" aria-hidden="true" />
            {extraImages}
          </span>
        ) : null}
      </button>
      <div className="min-w-0 flex-1 py-1">
        <p className="text-sm font-medium text-white">
          <time dateTime={activity.date_time_utc}>{when}</time>
        </p>
        {description ? <p className="mt-1 text-sm text-slate-300">{description}</p> : null}
        {activity.processing_status === 'unavailable' ? (
          <p className="mt-1 text-xs font-medium text-amber-300">{t('past.processingUnavailable')}</p>
        ) : null}
        {!description && !pictureless ? (
          <p className="mt-1 text-sm text-slate-400">
            {t(isClip ? 'past.clip' : 'past.snapshots', { count: extraImages })}
          </p>
        ) : null}
      </div>
    </article>
  );
}
