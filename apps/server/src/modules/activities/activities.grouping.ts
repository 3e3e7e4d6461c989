import { randomUUID } from 'node:crypto';
import { ACTIVITY_GROUPING_SECONDS } from '@homesitter/contract';
import type { PreparedMedia } from './activities.media.js';
import type { ActivityPatch, ActivityRow, NewActivity, UploadRow } from './activities.repository.js';

/** Files of one camera this close to an activity's files join it. */
export const GROUPING_WINDOW_MS = ACTIVITY_GROUPING_SECONDS * 1000;

/** A new activity from its first file. */
export function newActivity(
  id: string,
  userId: string,
  camera: { id: string; name: string; siteId: string | null },
  at: Date,
  media: PreparedMedia,
  /** Amnesia mode: kept only until then, and never in history (set here so no list ever shows it). */
  ephemeralUntil: Date | null = null,
): NewActivity {
  return {
    id,
    userId,
    cameraId: camera.id,
    cameraName: camera.name,
    siteId: camera.siteId,
    occurredAt: at,
    lastFileAt: at,
    mediaKind: media.kind,
    thumbnailKey: media.thumbnailKey ?? null,
    videoKey: media.videoKey ?? null,
    hlsKey: media.hlsKey ?? null,
    imageKeys: media.imageKey ? [media.imageKey] : [],
    width: media.width ?? null,
    height: media.height ?? null,
    durationSeconds: media.durationSeconds ?? null,
    ephemeralUntil,
  };
}

/** What joining a file to an activity reads of it (a stored row, or one a round is still building). */
export type JoinableState = Pick<
  ActivityRow,
  'occurredAt' | 'lastFileAt' | 'mediaKind' | 'thumbnailKey' | 'imageKeys' | 'videoKey' | 'width' | 'height'
>;

/**
 * A file joining an activity: the event spans both, a snapshot is added to its images (an activity without a
 * picture becomes one of snapshots), a clip becomes its video (and then sets the size the player shows)
 * unless it has one, and the first thumbnail stays. An event without media adds only its time.
 */
export function joinedActivity(current: JoinableState, at: Date, media: PreparedMedia): ActivityPatch {
  const patch: ActivityPatch = {
    occurredAt: at < current.occurredAt ? at : current.occurredAt,
    lastFileAt: at > current.lastFileAt ? at : current.lastFileAt,
  };
  if (!current.thumbnailKey && media.thumbnailKey) patch.thumbnailKey = media.thumbnailKey;
  if (media.imageKey) patch.imageKeys = [...current.imageKeys, media.imageKey];
  if (media.imageKey && current.mediaKind === 'none') patch.mediaKind = 'image';
  if (media.videoKey && !current.videoKey) {
    Object.assign(patch, {
      mediaKind: 'video',
      videoKey: media.videoKey,
      hlsKey: media.hlsKey ?? null,
      durationSeconds: media.durationSeconds ?? null,
      width: media.width ?? current.width,
      height: media.height ?? current.height,
    } satisfies ActivityPatch);
  } else if (current.width === null && media.width !== undefined) {
    patch.width = media.width;
    patch.height = media.height ?? null;
  }
  return patch;
}

/** What planning reads of a stored activity (`videoKey` only matters to clips: absent means none). */
export type PlanCandidate = Pick<ActivityRow, 'id' | 'occurredAt' | 'lastFileAt' | 'thumbnailKey'> &
  Partial<Pick<ActivityRow, 'videoKey'>>;

/** Where one file of a round goes. */
export interface PlannedFile {
  upload: UploadRow;
  activityId: string;
  /** The file starts this activity (a new one). */
  starts: boolean;
  /** The activity has no thumbnail yet and this file is the first of the round to go into it. */
  needThumbnail: boolean;
}

/**
 * Where each of a camera's files goes, as processing them one by one in upload order would put them: a file
 * joins the activity whose files span to within `windowMs` of it (the latest such; files may be processed out
 * of order, so both sides count), else it starts one; the activity's span then covers the file, which later
 * files see. A clip joins only an activity without a video (a second clip within 10 s starts its own, so
 * nothing the camera sent is lost). Pure: the same candidates give the same plan, which is how a round knows
 * its plan still holds inside its transaction.
 */
export function planCameraFiles(
  candidates: PlanCandidate[],
  uploads: UploadRow[],
  windowMs: number,
  newId: () => string = randomUUID,
): PlannedFile[] {
  const spans = candidates
    .map((c) => ({
      id: c.id,
      from: c.occurredAt.getTime(),
      to: c.lastFileAt.getTime(),
      thumbnail: c.thumbnailKey !== null,
      video: (c.videoKey ?? null) !== null,
    }))
    .sort((a, b) => a.from - b.from || a.id.localeCompare(b.id));
  const files = [...uploads].sort(
    (a, b) => a.receivedAt.getTime() - b.receivedAt.getTime() || a.id.localeCompare(b.id),
  );
  return files.map((upload) => {
    const at = upload.receivedAt.getTime();
    const clip = upload.mediaKind === 'video';
    // A file meant for an activity joins it while it is there to join; else it is grouped by its time.
    const meant = upload.forActivityId
      ? spans.find((s) => s.id === upload.forActivityId && !(clip && s.video))
      : undefined;
    let target =
      meant ?? spans.findLast((s) => s.from <= at + windowMs && s.to >= at - windowMs && !(clip && s.video));
    const starts = !target;
    if (!target) {
      target = { id: newId(), from: at, to: at, thumbnail: false, video: false };
      spans.push(target);
      spans.sort((a, b) => a.from - b.from || a.id.localeCompare(b.id));
    }
    // An event without media makes no thumbnail: the next picture of its activity does.
    const pictured = upload.mediaKind !== 'none';
    const needThumbnail = pictured && !target.thumbnail;
    if (pictured) target.thumbnail = true;
    if (clip) target.video = true;
    target.from = Math.min(target.from, at);
    target.to = Math.max(target.to, at);
    return { upload, activityId: target.id, starts, needThumbnail };
  });
}
