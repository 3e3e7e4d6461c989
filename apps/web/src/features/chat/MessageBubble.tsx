import type { VideoAttachment } from '@homesitter/contract';
import { AlertCircle, Clock, CornerUpLeft, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatInZone } from '../../shared/lib/time';
import { cn } from '../../shared/ui/cn';
import { VideoPlayer } from '../../shared/ui/VideoPlayer';
import { AlertCorrections } from './AlertCorrections';
import type { ChatItem } from './chatState';

interface Props {
  item: ChatItem;
  /** The profile's time zone, which every time on screen is shown in (the device's when unknown). */
  timeZone: string | null | undefined;
  onReply: (item: ChatItem) => void;
  onRetry: (item: ChatItem) => void;
}

/**
 * The line under a clip in a bubble: an alert's text is its clips' sentences, so a clip whose sentence the
 * text already says is captioned with its camera's name only (issue 31 point 12: each sentence shown once).
 */
export function captionUnder(video: VideoAttachment, text: string): string | null | undefined {
  const sentence = video.activity_description_in_preferred_language ?? video.activity_description;
  if (!sentence || !text.includes(sentence.trim())) return undefined;
  return video.camera_name ?? null;
}

/** A portrait in a bubble is cropped to 4:5 around the person, so one picture never fills a phone's screen. */
const NARROWEST_PICTURE = 4 / 5;

/** One message: quote, text, images and clips; our own pending or failed messages say so. */
export function MessageBubble({ item, timeZone, onReply, onRetry }: Props) {
  const { t, i18n } = useTranslation('chat');
  const mine = item.role === 'user';
  return (
    <li
      id={`message-${item.message_uuid}`}
      data-testid="chat-message"
      data-pending={item.isPending ? 'true' : undefined}
      data-error={item.error ? 'true' : undefined}
      className={cn(
        'group flex flex-col gap-1 rounded-2xl transition-colors duration-700 data-[highlighted=true]:bg-amber-300/10 data-[highlighted=true]:ring-2 data-[highlighted=true]:ring-amber-300/70',
        mine ? 'items-end' : 'items-start',
      )}
    >
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-4 py-2.5 text-sm leading-relaxed shadow-sm transition-shadow md:max-w-[70%]',
          mine ? 'rounded-br-md bg-brand-500 text-slate-950' : 'rounded-bl-md bg-slate-800 text-slate-100',
          item.isPending && 'opacity-70',
          item.error && 'ring-2 ring-red-500',
        )}
      >
        <span className="sr-only">{mine ? t('message.you') : t('message.agent')}: </span>
        {item.reply_to_message ? (
          <blockquote
            className={cn(
              'mb-2 border-l-2 pl-2 text-xs',
              mine ? 'border-slate-900/40 text-slate-900/80' : 'border-slate-500 text-slate-300',
            )}
          >
            <span className="block font-semibold">
              {item.reply_to_message.role === 'user' ? t('message.you') : t('message.agent')}
            </span>
            <span className="line-clamp-2">{item.reply_to_message.text}</span>
          </blockquote>
        ) : null}
        <p className="whitespace-pre-wrap break-words">{item.text}</p>
        {item.image_urls.length > 0 ? (
          <div className="mt-2 grid grid-cols-2 gap-2">
            {item.image_urls.map((url) => (
              <a key={url} href={url} target="_blank" rel="noreferrer" aria-label={t('image.open')}>
                <img
                  src={url}
                  alt=""
                  loading="lazy"
                  className="aspect-square w-full rounded-lg object-cover"
                />
              </a>
            ))}
          </div>
        ) : null}
        {item.videos.map((video, i) => (
          <VideoPlayer
            key={video.activity_uuid ?? i}
            video={video}
            caption={captionUnder(video, item.text)}
            minRatio={NARROWEST_PICTURE}
            className="mt-2 w-64 max-w-full md:w-80"
          />
        ))}
      </div>
      {!mine && item.videos.length > 0 && item.source_activity_uuid_list.length > 0 ? (
        <AlertCorrections activityUuids={item.source_activity_uuid_list} />
      ) : null}
      <div className="flex items-center gap-2 px-1 text-xs text-slate-400">
        {item.isPending ? (
          <span className="inline-flex items-center gap-1" role="status">
            <Clock className="size-3" aria-hidden="true" />
            {t('message.sending')}
          </span>
        ) : (
          <time dateTime={item.date_time_utc}>
            {formatInZone(item.date_time_utc, { language: i18n.language, timeZone, style: 'stamp' })}
          </time>
        )}
        {item.error ? (
          <>
            <span className="inline-flex items-center gap-1 text-red-300" role="alert">
              <AlertCircle className="size-3" aria-hidden="true" />
              {t('message.failed')}
            </span>
            <button
              type="button"
              onClick={() => onRetry(item)}
              className="inline-flex items-center gap-1 rounded px-1 font-medium text-brand-300 hover:underline focus-visible:outline-2 focus-visible:outline-brand-400"
            >
              <RotateCw className="size-3" aria-hidden="true" />
              {t('message.retry')}
            </button>
          </>
        ) : null}
        {!item.localId ? (
          <button
            type="button"
            onClick={() => onReply(item)}
            aria-label={t('reply.action')}
            className="rounded p-1 text-slate-400 opacity-60 hover:bg-slate-800 hover:text-white focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-brand-400 group-hover:opacity-100"
          >
            <CornerUpLeft className="size-3.5" aria-hidden="true" />
          </button>
        ) : null}
      </div>
    </li>
  );
}
