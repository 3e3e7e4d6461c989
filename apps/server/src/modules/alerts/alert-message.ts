import type { VideoAttachment } from '@homesitter/contract';
import type { ActivityObject } from '../../platform/db/schema.js';
import type { ActivityRow } from '../activities/activities.repository.js';

/** An activity's media as signed, expiring URLs. */
export interface ActivityMedia {
  thumbnail_image_url: string | null;
  video_url: string | null;
  hls_url: string | null;
}

/** The kinds of things worth an alert; anything else (motion, shadows) is only recorded. */
export const ALERT_KINDS: readonly ActivityObject['kind'][] = ['person', 'vehicle', 'animal'];

export const isAlertWorthy = (objects: ActivityObject[]) => objects.some((o) => ALERT_KINDS.includes(o.kind));

/** Sentences of one alert; beyond these, later activities are still attached but not spelled out. */
const MAX_SENTENCES = 6;

/** The sentence the user reads: in their language when there is one. */
export const readableDescription = (a: Pick<ActivityRow, 'description' | 'descriptionLocalized'>) =>
  a.descriptionLocalized ?? a.description ?? '';

/**
 * docs/product.md §3 "Video attachment" for one activity of an alert. An activity that joined an earlier one's alert
 * names that first activity in `coalesced_activity_uuid`. An activity without a clip (snapshots) has no
 * video or HLS URL: clients show its picture (`thumbnail_image_url`) instead of a player.
 */
export function attachmentFor(a: ActivityRow, media: ActivityMedia): VideoAttachment {
  const ratio = a.width && a.height ? Math.round((a.width / a.height) * 10_000) / 10_000 : null;
  return {
    video_url: media.video_url,
    url: media.video_url,
    hls_url: media.hls_url,
    activity_uuid: a.id,
    camera_name: a.cameraName,
    date_time_utc: a.occurredAt.toISOString(),
    activity_description: a.description,
    activity_description_in_preferred_language: readableDescription(a) || null,
    aspectRatio: ratio,
    metaWidth: a.width,
    metaHeight: a.height,
    coalesced_activity_uuid:
      a.coalescedActivityId && a.coalescedActivityId !== a.id ? a.coalescedActivityId : null,
    thumbnail_image_url: media.thumbnail_image_url,
  };
}

/** The alert's text: each distinct sentence of its activities, first to last. */
export function alertText(activities: Pick<ActivityRow, 'description' | 'descriptionLocalized'>[]): string {
  const sentences = [...new Set(activities.map(readableDescription).filter(Boolean))];
  return sentences.slice(0, MAX_SENTENCES).join('\n');
}
