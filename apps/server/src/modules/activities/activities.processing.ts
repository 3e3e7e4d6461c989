import { randomUUID } from 'node:crypto';
import { ACTIVITY_GROUPING_SECONDS, type ActivityCreatedEvent } from '@homesitter/contract';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { EventBus } from '../../platform/events.js';
import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import { EPHEMERAL_ACTIVITY_HOURS } from '../../platform/db/schema.js';
import { UnreadableClipError } from '../media/ffmpeg.js';
import { UnreadableImageError } from '../media/images.js';
import { uploadCameraName, type UploadCameras } from './activities.cameras.js';
import './activities.events.js';
import './activities.jobs.js';
import { MissingUploadError, type ActivityMedia, type PreparedMedia } from './activities.media.js';
import type { ActivityRenderer } from './activities.render.js';
import type {
  ActivitiesRepository,
  ActivityPatch,
  ActivityRow,
  NewActivity,
  UploadOwner,
  UploadRow,
} from './activities.repository.js';

/** Files of one camera this close to an activity's files join it. */
export const GROUPING_WINDOW_MS = ACTIVITY_GROUPING_SECONDS * 1000;
/** How long an upload waits for a subscription when its user has no free events left. */
export const HOLD_MS = 24 * 3_600_000;
/** Regroupings a run tolerates when other instances keep changing the camera's latest activity. */
const MAX_PLANS = 3;

/** What became of an upload; the job's log line and the tests read it. */
export type UploadOutcome =
  | 'created' // a new activity
  | 'joined' // added to the camera's activity of the last 10 s
  | 'dropped' // private mode: deleted unprocessed, counted
  | 'held' // no free events: kept 24 h for a subscription
  | 'failed' // the file is not readable media
  | 'done' // already processed by an earlier run (retried or duplicated job)
  | 'gone'; // the upload or its user no longer exists

export interface UploadProcessorDeps {
  repo: ActivitiesRepository;
  cameras: UploadCameras;
  media: ActivityMedia;
  storage: ObjectStorage;
  jobs: Pick<Jobs, 'send'>;
  events: EventBus;
  renderer: ActivityRenderer;
  /** Tells the user's open apps (realtime `ActivityCreated`). */
  publish: (userId: string, event: ActivityCreatedEvent) => Promise<void>;
  /** `BILLING_ENABLED`: users without a subscription are limited to their free events. */
  billingEnabled: boolean;
  log: Logger;
  now?: () => Date;
}

/** Runs work one at a time per key (a camera), in arrival order, within this process. */
function createKeyedQueue() {
  const tails = new Map<string, Promise<unknown>>();
  return async function run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const result = (tails.get(key) ?? Promise.resolve()).then(fn);
    const tail = result.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

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

/**
 * A file joining an activity: the event spans both, a snapshot is added to its images, a clip becomes its
 * video (and then sets the size the player shows) unless it has one, and the first thumbnail stays.
 */
export function joinedActivity(current: ActivityRow, at: Date, media: PreparedMedia): ActivityPatch {
  const patch: ActivityPatch = {
    occurredAt: at < current.occurredAt ? at : current.occurredAt,
    lastFileAt: at > current.lastFileAt ? at : current.lastFileAt,
  };
  if (!current.thumbnailKey && media.thumbnailKey) patch.thumbnailKey = media.thumbnailKey;
  if (media.imageKey) patch.imageKeys = [...current.imageKeys, media.imageKey];
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

/**
 * `ingest.process-upload`: one stored camera file into an activity (issue "Camera event ingest",
 * "Processing"). At least once in, exactly once out: the upload row is locked and must still be pending when
 * its activity is written, in one transaction with the row's new status and the `activity.analyse` job, so a
 * retried or duplicated job never makes a second activity.
 */
export function createUploadProcessor(deps: UploadProcessorDeps) {
  const { repo, storage, log } = deps;
  const now = deps.now ?? (() => new Date());
  const perCamera = createKeyedQueue();

  const mustHold = (owner: UploadOwner) =>
    deps.billingEnabled && !owner.hasActiveSubscription && owner.remainingFreeEvents <= 0;

  async function deleteObject(key: string): Promise<void> {
    await storage.delete(key).catch((err: unknown) => log.error({ err, key }, 'could not delete an upload'));
  }

  /** Private mode keeps nothing: the bytes go first, then the row says so and the day's counter counts it. */
  async function drop(upload: UploadRow): Promise<UploadOutcome> {
    await storage.delete(upload.storageKey);
    const at = now();
    await repo.transaction(async (q) => {
      if (await q.finishUpload(upload.id, 'dropped', null, at))
        await q.bumpCounter(upload.userId, utcDay(at), 'private_mode');
    });
    return 'dropped';
  }

  async function hold(upload: UploadRow): Promise<UploadOutcome> {
    const at = now();
    await repo.transaction(async (q) => {
      if (await q.finishUpload(upload.id, 'held', null, at))
        await q.bumpCounter(upload.userId, utcDay(at), 'no_free_events');
    });
    return 'held';
  }

  async function fail(upload: UploadRow, err: Error): Promise<UploadOutcome> {
    // Its bytes may be gone because another run of the same upload finished first.
    if (!(await repo.finishUpload(upload.id, 'failed', null, now()))) return 'done';
    log.warn({ uploadId: upload.id, reason: err.message }, 'camera upload is not readable media; dropped');
    await deleteObject(upload.storageKey);
    return 'failed';
  }

  type Commit = 'created' | 'joined' | 'held' | 'done' | 'replan';

  /** The one transaction: upload locked and still pending, grouping checked again, activity written. */
  function commit(
    upload: UploadRow,
    owner: UploadOwner,
    cameraId: string,
    planned: ActivityRow | undefined,
    activityId: string,
    media: PreparedMedia,
  ): Promise<Commit> {
    return repo.transaction(async (q, tx): Promise<Commit> => {
      const locked = await q.lockUpload(upload.id);
      if (locked?.status !== 'pending') return 'done';
      const camera = await q.lockCamera(owner.id, cameraId);
      if (!camera) return 'replan';
      const at = upload.receivedAt;
      const current = await q.findJoinable(
        owner.id,
        camera.id,
        at,
        GROUPING_WINDOW_MS,
        media.kind === 'video',
      );
      // Another instance changed the camera's latest activity since the plan: plan again.
      if ((current?.id ?? null) !== (planned?.id ?? null)) return 'replan';
      if (current) {
        await q.updateActivity(current.id, joinedActivity(current, at, media));
      } else {
        // A free event is used per new activity, not per file; subscribers use none.
        if (deps.billingEnabled && !owner.hasActiveSubscription && !(await q.takeFreeEvent(owner.id))) {
          await q.finishUpload(upload.id, 'held', null, now());
          await q.bumpCounter(owner.id, utcDay(now()), 'no_free_events');
          return 'held';
        }
        const ephemeralUntil = owner.isAmnesiaModeEnabled
          ? new Date(now().getTime() + EPHEMERAL_ACTIVITY_HOURS * 3_600_000)
          : null;
        await q.insertActivity(newActivity(activityId, owner.id, camera, at, media, ephemeralUntil));
      }
      await q.finishUpload(upload.id, 'processed', activityId, now());
      await deps.jobs.send('activity.analyse', { activityId }, { tx });
      return current ? 'joined' : 'created';
    });
  }

  async function announce(userId: string, activityId: string): Promise<void> {
    await deps.events.emit('activity.created', { userId, activityId });
    const row = await repo.findById(activityId);
    if (!row) return;
    const activity = await deps.renderer.render(row);
    await deps.publish(userId, {
      activity_uuid: activity.activity_uuid,
      camera_name: activity.camera_name,
      date_time_utc: activity.date_time_utc,
      description: activity.activity_description,
      thumbnail_image_url: activity.thumbnail_image_url,
    });
  }

  async function processForCamera(
    queued: UploadRow,
    owner: UploadOwner,
    name: string,
  ): Promise<UploadOutcome> {
    // Another run of this upload may have finished while this one waited for the camera.
    const upload = await repo.findUpload(queued.id);
    if (!upload) return 'gone';
    if (upload.status !== 'pending') return 'done';
    // Rules first: in private mode nothing about the event is kept, not even the camera's last activity.
    const existing = await deps.cameras.find(owner.id, name);
    if (owner.isGlobalPrivacyModeEnabled || existing?.isPrivateModeEnabled) return drop(upload);
    const camera = await deps.cameras.arrived(owner.id, name, existing, upload.receivedAt);

    for (let plan = 1; ; plan++) {
      const target = await repo.findJoinable(
        owner.id,
        camera.id,
        upload.receivedAt,
        GROUPING_WINDOW_MS,
        upload.mediaKind === 'video',
      );
      if (!target && mustHold(owner)) return hold(upload);
      const activityId = target?.id ?? randomUUID();
      let media: PreparedMedia;
      try {
        media = await deps.media.prepare(upload, activityId, !target?.thumbnailKey);
      } catch (err) {
        if (
          err instanceof UnreadableClipError ||
          err instanceof UnreadableImageError ||
          err instanceof MissingUploadError
        )
          return fail(upload, err);
        throw err;
      }
      const outcome = await commit(upload, owner, camera.id, target, activityId, media).catch(
        async (err: unknown) => {
          await deps.media.discard(media.keys);
          throw err;
        },
      );
      if (outcome === 'replan' || outcome === 'held' || outcome === 'done') {
        await deps.media.discard(media.keys);
        if (outcome !== 'replan') return outcome;
        if (plan >= MAX_PLANS) throw new Error(`upload ${upload.id}: the camera's activities kept changing`);
        continue;
      }
      // The activity holds its own copy of the file now.
      await deleteObject(upload.storageKey);
      if (outcome === 'created') await announce(owner.id, activityId);
      log.info(
        { uploadId: upload.id, activityId, outcome, kind: media.kind, transcoded: media.transcoded },
        'camera upload processed',
      );
      return outcome;
    }
  }

  return {
    /** The `ingest.process-upload` handler. Errors other than unreadable media are thrown (retried). */
    async process(uploadId: string): Promise<UploadOutcome> {
      const upload = await repo.findUpload(uploadId);
      if (!upload) return 'gone';
      if (upload.status !== 'pending') return 'done';
      const owner = await repo.findOwner(upload.userId);
      if (!owner) return 'gone';
      const name = uploadCameraName(upload.cameraName);
      // Files of one camera are grouped one at a time here; the transaction's camera lock does it across
      // instances, this only spares the regrouping work within one.
      return perCamera(`${owner.id}\n${name.toLowerCase()}`, () => processForCamera(upload, owner, name));
    },

    /**
     * For the billing code: a subscription became active, so the user's held uploads (of the last 24 h) are
     * processed after all. Answers how many were queued.
     */
    async releaseHeld(userId: string): Promise<number> {
      const since = new Date(now().getTime() - HOLD_MS);
      const ids = await repo.transaction(async (q, tx) => {
        const released = await q.unholdUploads(userId, since);
        for (const uploadId of released) await deps.jobs.send('ingest.process-upload', { uploadId }, { tx });
        return released;
      });
      if (ids.length > 0) log.info({ userId, uploads: ids.length }, 'held camera uploads released');
      return ids.length;
    },

    /** `ingest.purge-held`: uploads held for more than 24 h are deleted, bytes and row. */
    async purgeHeld(): Promise<number> {
      const cutoff = new Date(now().getTime() - HOLD_MS);
      let purged = 0;
      for (;;) {
        const batch = await repo.uploadsBefore(cutoff, 200, 'held');
        if (batch.length === 0) break;
        const deleted = await repo.deleteUploads(
          batch.map((u) => u.id),
          'held',
        );
        await Promise.all(deleted.map((u) => deleteObject(u.storageKey)));
        purged += deleted.length;
        if (batch.length < 200) break;
      }
      if (purged > 0) log.info({ purged }, 'held camera uploads purged after 24 h');
      return purged;
    },
  };
}
export type UploadProcessor = ReturnType<typeof createUploadProcessor>;
