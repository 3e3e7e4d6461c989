import type { Activity } from '@homesitter/contract';
import * as Dialog from '@radix-ui/react-dialog';
import { Download, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { NoPicture } from '../../shared/ui/NoPicture';
import { VideoPlayer } from '../../shared/ui/VideoPlayer';

/**
 * One past event, large: its clip playing (HLS) or its snapshots full size, with the description and a
 * download of the clip as the camera sent it.
 */
export function ActivityViewer({
  activity,
  when,
  onClose,
}: {
  activity: Activity;
  /** The event's time as the list shows it (user's time zone). */
  when: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('cameras');
  const description =
    activity.activity_description_in_preferred_language ?? activity.activity_description ?? null;
  const clip = activity.hls_url ?? activity.video_url;
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/80 backdrop-blur-sm" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-4xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-slate-900 p-4 shadow-2xl ring-1 ring-slate-700 focus:outline-none md:p-6">
          <div className="mb-3 flex items-start gap-3">
            <div className="min-w-0 flex-1">
              <Dialog.Title className="truncate text-lg font-semibold text-white">
                {t('past.viewerTitle', { camera: activity.camera_name, time: when })}
              </Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-slate-300">
                {description ??
                  (activity.media_kind === 'none'
                    ? null
                    : t(clip ? 'past.clip' : 'past.snapshots', { count: activity.image_urls.length }))}
              </Dialog.Description>
            </div>
            <Dialog.Close
              aria-label={t('past.close')}
              className="rounded-lg p-2 text-slate-300 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-brand-400"
            >
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          {clip ? (
            <>
              {activity.processing_status === 'unavailable' ? (
                <p
                  role="note"
                  className="mb-3 rounded-lg bg-amber-950/60 p-3 text-sm text-amber-100 ring-1 ring-amber-800"
                >
                  <strong className="font-semibold">{t('past.processingUnavailable')}.</strong>{' '}
                  {t('past.processingUnavailableText')}
                </p>
              ) : null}
              <VideoPlayer
                autoPlay
                video={{
                  activity_uuid: activity.activity_uuid,
                  camera_name: activity.camera_name,
                  date_time_utc: activity.date_time_utc,
                  hls_url: activity.hls_url,
                  video_url: activity.video_url,
                  thumbnail_image_url: activity.thumbnail_image_url,
                  aspectRatio: activity.aspect_ratio,
                  activity_description: activity.activity_description,
                  activity_description_in_preferred_language:
                    activity.activity_description_in_preferred_language,
                }}
              />
              {activity.video_url ? (
                <a
                  href={activity.video_url}
                  download
                  className="mt-3 inline-flex items-center gap-2 text-sm text-brand-400 underline-offset-4 hover:underline"
                >
                  <Download className="size-4" aria-hidden="true" />
                  {t('past.download')}
                </a>
              ) : null}
            </>
          ) : null}
          {!clip && activity.image_urls.length === 0 ? (
            // No picture to show (an event that reached the server after its picture had expired).
            <NoPicture className="aspect-video w-full rounded-xl" />
          ) : null}
          {activity.image_urls.length > 0 ? (
            <ul className={clip ? 'mt-4 grid grid-cols-2 gap-2 md:grid-cols-3' : 'flex flex-col gap-3'}>
              {activity.image_urls.map((url, i) => (
                <li key={url}>
                  <img
                    src={url}
                    alt={t('past.imageAlt', {
                      index: i + 1,
                      count: activity.image_urls.length,
                      camera: activity.camera_name,
                      time: when,
                    })}
                    className="w-full rounded-xl bg-black object-contain"
                  />
                </li>
              ))}
            </ul>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
