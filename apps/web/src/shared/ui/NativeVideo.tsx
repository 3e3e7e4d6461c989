import { Download, Play, Share2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PictureFocus } from '@homesitter/contract';
import { focusStyle } from '../lib/focus';
import { notify } from '../lib/toast';
import { openNativePlayer, saveNativeVideo, shareNativeVideo, VideoDownloadError } from '../native';
import { Button } from './Button';
import { cn } from './cn';

/**
 * Inside the iOS/Android apps: a poster with a play button that opens the phone's own player (HLS) for a
 * live stream or a clip. `autoOpen` opens it at once (the fullscreen screen).
 */
export function NativeStreamButton({
  url,
  title,
  live = false,
  poster,
  fill = false,
  autoOpen = false,
  ratio = 16 / 9,
  focus,
}: {
  url: string;
  title: string;
  live?: boolean;
  poster?: string | undefined;
  fill?: boolean;
  autoOpen?: boolean;
  ratio?: number;
  /** Where the poster's cover crop keeps what was detected (centred without). */
  focus?: PictureFocus | null | undefined;
}) {
  const { t } = useTranslation();
  const opened = useRef(false);
  const open = () => {
    openNativePlayer({ url, title, live }).catch((error: unknown) =>
      console.warn('native player failed', error),
    );
  };
  useEffect(() => {
    if (!autoOpen || opened.current) return;
    opened.current = true;
    openNativePlayer({ url, title, live }).catch((error: unknown) =>
      console.warn('native player failed', error),
    );
  }, [autoOpen, url, title, live]);

  return (
    <div
      data-testid="native-player"
      className={cn(
        'relative flex w-full items-center justify-center overflow-hidden bg-black',
        fill ? 'h-full' : 'rounded-2xl ring-1 ring-slate-800',
      )}
      style={fill ? undefined : { aspectRatio: String(ratio) }}
    >
      {poster ? (
        <img
          src={poster}
          alt=""
          className="absolute inset-0 h-full w-full object-cover opacity-70"
          style={focusStyle(focus ?? undefined)}
        />
      ) : null}
      <button
        type="button"
        onClick={open}
        aria-label={live ? t('video.playLive', { name: title }) : t('video.play', { name: title })}
        className="relative flex size-16 items-center justify-center rounded-full bg-black/60 text-white ring-1 ring-white/30 hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-brand-400"
      >
        <Play className="size-8" aria-hidden="true" />
      </button>
    </div>
  );
}

/** docs/product.md §6: share a clip or save it to the gallery, in the mobile apps only; §8 download failures as toasts. */
export function NativeVideoActions({ url, title }: { url: string; title?: string | undefined }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'share' | 'save' | null>(null);
  const run = async (kind: 'share' | 'save') => {
    setBusy(kind);
    try {
      if (kind === 'share') await shareNativeVideo(url, title);
      else {
        await saveNativeVideo(url);
        notify.success(t('video.saved'));
      }
    } catch (error) {
      console.warn(`video ${kind} failed`, error);
      const reason = error instanceof VideoDownloadError ? error.reason : 'failed';
      notify.error(t(`video.errors.${reason}`));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="mt-2 flex gap-2">
      <Button
        variant="secondary"
        className="h-9 px-3"
        busy={busy === 'share'}
        onClick={() => void run('share')}
      >
        <Share2 className="size-4" aria-hidden="true" />
        {t('video.share')}
      </Button>
      <Button
        variant="secondary"
        className="h-9 px-3"
        busy={busy === 'save'}
        onClick={() => void run('save')}
      >
        <Download className="size-4" aria-hidden="true" />
        {t('video.saveToGallery')}
      </Button>
    </div>
  );
}
