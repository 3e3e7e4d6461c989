import type { VideoAttachment } from '@homesitter/contract';
import type { ActivityObject } from '../../platform/db/schema.js';
import type { ActivityRow } from '../activities/activities.repository.js';
import { focusOf } from '../media/media.module.js';
import {
  alertText as composeAlertText,
  alertUnusualLine,
  type AlertPart,
  type Language,
} from '../language/language.module.js';

/** An activity's media as signed, expiring URLs. */
export interface ActivityMedia {
  thumbnail_image_url: string | null;
  video_url: string | null;
  hls_url: string | null;
}

/** The kinds of things worth an alert; anything else (motion, shadows) is only recorded. */
export const ALERT_KINDS: readonly ActivityObject['kind'][] = ['person', 'vehicle', 'animal'];

/**
 * An event without a picture (a Nest event that reached us after Google's picture had expired) in which the
 * camera's maker reported someone: a person, or the doorbell rang. Our analysis saw nothing there, so this
 * is all that is known; the alert says it as the maker's ("Front Door Doorbell reported: …"), never as ours.
 */
export const reportedSomeoneUnseen = (a: Pick<ActivityRow, 'mediaKind' | 'cameraVerdict'>) =>
  a.mediaKind === 'none' && a.cameraVerdict.some((v) => v === 'person' || v === 'chime');

/**
 * Whether an event is worth an alert: a person, vehicle or animal our analysis saw; for an event without a
 * picture, someone its camera's maker reported (`reportedSomeoneUnseen`). Motion and sound alone are recorded.
 */
export const isAlertWorthy = (a: Pick<ActivityRow, 'objects' | 'mediaKind' | 'cameraVerdict'>) =>
  a.objects.some((o) => ALERT_KINDS.includes(o.kind)) || reportedSomeoneUnseen(a);

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
    focus: focusOf(a.objects, a.width, a.height),
  };
}

type AlertedActivity = Pick<ActivityRow, 'description' | 'descriptionLocalized' | 'routine' | 'cameraName'>;

/** The alert's parts as the owner reads them when it is sent (their stored sentences). */
const partsOf = (activities: AlertedActivity[]): AlertPart[] =>
  activities.map((a) => ({
    sentence: readableDescription(a),
    unusual: a.routine?.unusual,
    cameraName: a.cameraName,
  }));

/** "Unusual: …" when one of the alert's activities departs from its camera's routine (the first that does). */
export const unusualLineOf = (activities: AlertedActivity[], language: Language) =>
  alertUnusualLine(partsOf(activities), language);

/** The alert's text as sent (language/alert-text.ts); history renders it again in the reader's language. */
export const alertText = (activities: AlertedActivity[], language: Language) =>
  composeAlertText(partsOf(activities), language);

/**
 * Whether the camera wants this alert: with "only unusual events" on, an event its routine finds usual is
 * recorded but not alerted; one not judged yet (too little history) still alerts.
 */
export const wantedByCamera = (
  camera: { onlyUnusualAlerts: boolean },
  activity: Pick<ActivityRow, 'routine'>,
) => !camera.onlyUnusualAlerts || !activity.routine || activity.routine.unusual !== null;
