import type { Activity } from '@homesitter/contract';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import { createSignedUrlCache, focusOf } from '../media/media.module.js';
import type { ActivityRow } from './activities.repository.js';

export interface ActivityRendererDeps {
  storage: ObjectStorage;
  /**
   * The URL of an HLS playlist: always the server's media route (which writes the segments' signed URLs
   * into it), whichever store holds the files.
   */
  signPlaylist: (key: string, ttlSeconds: number) => string;
  urlTtlSeconds: number;
  now: () => Date;
}

/** Activities as the API shows them: media only as signed, expiring URLs, each made once per window. */
export function createActivityRenderer(deps: ActivityRendererDeps) {
  const files = createSignedUrlCache({
    sign: (key, ttl) => deps.storage.signedUrl(key, ttl),
    urlTtlSeconds: deps.urlTtlSeconds,
    now: deps.now,
  });
  const playlists = createSignedUrlCache({
    sign: deps.signPlaylist,
    urlTtlSeconds: deps.urlTtlSeconds,
    now: deps.now,
  });
  const maybe = (key: string | null, sign: (key: string) => Promise<string>) =>
    key ? sign(key) : Promise.resolve(null);

  async function render(row: ActivityRow): Promise<Activity> {
    const [thumbnail, video, hls, images] = await Promise.all([
      maybe(row.thumbnailKey, files.url),
      maybe(row.videoKey, files.url),
      maybe(row.hlsKey, playlists.url),
      Promise.all(row.imageKeys.map(files.url)),
    ]);
    const sized = row.width && row.height ? { width: row.width, height: row.height } : null;
    return {
      activity_uuid: row.id,
      camera_name: row.cameraName,
      site_uuid: row.siteId,
      date_time_utc: row.occurredAt.toISOString(),
      media_kind: row.mediaKind,
      thumbnail_image_url: thumbnail,
      video_url: video,
      hls_url: hls,
      image_urls: images,
      width: sized?.width ?? null,
      height: sized?.height ?? null,
      aspect_ratio: sized ? Math.round((sized.width / sized.height) * 10_000) / 10_000 : null,
      focus: focusOf(row.objects, row.width, row.height),
      duration_seconds: row.durationSeconds === null ? null : Math.round(row.durationSeconds * 100) / 100,
      // A clip is only ever stored without its HLS when ffmpeg could not run (activities.media.ts).
      processing_status: row.videoKey && !row.hlsKey ? 'unavailable' : 'processed',
      objects: row.objects.map(({ kind, label, score }) => ({ kind, label, score })),
      recognised_memories: row.recognised.map(({ category, memory_uuid, name }) => ({
        category,
        memory_uuid,
        name,
      })),
      activity_description: row.description,
      // Stored only when the user's language is not English; otherwise the English sentence is theirs.
      activity_description_in_preferred_language: row.descriptionLocalized ?? row.description,
    };
  }

  return { render };
}
export type ActivityRenderer = ReturnType<typeof createActivityRenderer>;
