import type { VideoAttachment } from '@homesitter/contract';

/**
 * Thumbnails of the clips seen so far, by activity (docs/product.md §2: the video-thumbnail cache is shared by every
 * signed-in screen): a later message about the same activity shows its poster at once.
 */
const thumbnails = new Map<string, string>();

const keyOf = (v: VideoAttachment) =>
  v.coalesced_activity_uuid ?? v.activity_uuid ?? v.hls_url ?? v.video_url ?? v.url;

export function thumbnailFor(video: VideoAttachment): string | undefined {
  const key = keyOf(video);
  if (video.thumbnail_image_url) {
    if (key) thumbnails.set(key, video.thumbnail_image_url);
    return video.thumbnail_image_url;
  }
  return key ? thumbnails.get(key) : undefined;
}
