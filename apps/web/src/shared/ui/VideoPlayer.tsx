import type { VideoAttachment } from '@homesitter/contract';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { focusStyle } from '../lib/focus';
import { isNativeApp } from '../lib/native';
import { thumbnailFor } from '../lib/thumbnailCache';
import { choosePlayer } from '../native/player';
import { NativeStreamButton, NativeVideoActions } from './NativeVideo';
import { NoPicture } from './NoPicture';

/**
 * A clip that plays inline: native HLS (Safari), else hls.js loaded on demand, else the plain file.
 * `autoPlay` starts it at once (a player opened by a tap, e.g. from a camera's past events). Inside the
 * iOS/Android apps the phone's own player plays it instead, with share and save-to-gallery beside it.
 */
export function VideoPlayer({
  video,
  className,
  autoPlay = false,
  caption,
  minRatio,
}: {
  video: VideoAttachment;
  className?: string;
  autoPlay?: boolean;
  /**
   * The line under the clip, when not its description: a chat bubble whose text already says the
   * description shows the camera's name instead, so no sentence is shown twice. Null: no line.
   */
  caption?: string | null;
  /**
   * The narrowest frame (width / height) the picture gets: a taller picture is cropped to it around what was
   * detected (the attachment's `focus`), as the cards and highlights crop theirs. The chat keeps a portrait
   * from filling the screen this way; without it the frame is the picture's own.
   */
  minRatio?: number;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLVideoElement>(null);
  const file = video.video_url ?? video.url ?? undefined;
  const hls = video.hls_url ?? undefined;
  const kind = choosePlayer(isNativeApp(), hls ?? file);

  useEffect(() => {
    const element = ref.current;
    if (kind === 'native') return;
    if (!element) return;
    if (!hls || element.canPlayType('application/vnd.apple.mpegurl')) {
      element.src = hls ?? file ?? '';
      return;
    }
    let destroyed = false;
    let player: { destroy(): void } | undefined;
    void import('hls.js').then(({ default: Hls }) => {
      if (destroyed) return;
      if (!Hls.isSupported()) {
        element.src = file ?? '';
        return;
      }
      const instance = new Hls();
      instance.loadSource(hls);
      instance.attachMedia(element);
      player = instance;
    });
    return () => {
      destroyed = true;
      player?.destroy();
    };
  }, [hls, file, kind]);

  const own =
    video.aspectRatio ?? (video.metaWidth && video.metaHeight ? video.metaWidth / video.metaHeight : 16 / 9);
  const ratio = minRatio ? Math.max(own, minRatio) : own;
  // A picture whose frame is not its own shape is cropped: around what was detected, not at its centre.
  const crop = focusStyle(video.focus ?? undefined);
  const label =
    video.activity_description_in_preferred_language ?? video.activity_description ?? video.camera_name;
  const shown = caption === undefined ? label : caption;
  const poster = thumbnailFor(video);
  // An alert about snapshots has no clip: its picture is shown instead of a player.
  if (!hls && !file)
    return (
      <figure className={className}>
        {poster ? (
          <a href={poster} target="_blank" rel="noreferrer" aria-label={t('video.openImage')}>
            <img
              src={poster}
              alt={label ?? t('video.snapshot')}
              loading="lazy"
              className="w-full rounded-xl bg-black object-cover"
              style={{ aspectRatio: String(ratio), ...crop }}
            />
          </a>
        ) : (
          // Neither clip nor picture: an event that reached the server after its picture had expired.
          <NoPicture className="w-full rounded-xl" style={{ aspectRatio: String(ratio) }} />
        )}
        {shown ? <figcaption className="mt-1 text-xs text-slate-400">{shown}</figcaption> : null}
      </figure>
    );
  if (kind === 'native')
    return (
      <figure className={className}>
        <NativeStreamButton
          url={hls ?? file ?? ''}
          title={label ?? t('video.label')}
          poster={poster}
          ratio={ratio}
          focus={video.focus}
          autoOpen={autoPlay}
        />
        {shown ? <figcaption className="mt-1 text-xs text-slate-400">{shown}</figcaption> : null}
        {file ? <NativeVideoActions url={file} title={label ?? undefined} /> : null}
      </figure>
    );
  return (
    <figure className={className}>
      <video
        ref={ref}
        controls
        playsInline
        autoPlay={autoPlay}
        preload={autoPlay ? 'auto' : 'none'}
        poster={poster}
        aria-label={label ?? t('video.label')}
        className="w-full rounded-xl bg-black object-cover"
        style={{ aspectRatio: String(ratio), ...crop }}
      />
      {shown ? <figcaption className="mt-1 text-xs text-slate-400">{shown}</figcaption> : null}
    </figure>
  );
}
