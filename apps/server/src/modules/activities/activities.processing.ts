import { randomUUID } from 'node:crypto';
import type { ActivityCreatedEvent } from '@homesitter/contract';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { EventBus } from '../../platform/events.js';
import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import { EPHEMERAL_ACTIVITY_HOURS } from '../../platform/db/schema.js';
import { UnreadableClipError } from '../media/ffmpeg.js';
import { UnreadableImageError } from '../media/images.js';
import { uploadCameraName, type UploadCameras } from './activities.cameras.js';
import { GROUPING_WINDOW_MS, joinedActivity, newActivity } from './activities.grouping.js';
import { MissingUploadError, type ActivityMedia, type PreparedMedia } from './activities.media.js';
import type { ActivityRenderer } from './activities.render.js';
import type { ActivitiesRepository, ActivityRow, UploadOwner, UploadRow } from './activities.repository.js';
import { createUploadRounds, type RoundItem } from './activities.rounds.js';

export { GROUPING_WINDOW_MS };
/** Snapshots a round takes at most (a larger round waits longer for its slowest thumbnail). */
export const MAX_ROUND = 32;
/** `ingest.process-upload` jobs claimed at once: a round's worth running and the next one gathering. */
export const CLAIM_SIZE = 2 * MAX_ROUND;
/** Rounds a snapshot is planned in (its camera's activities changed under it) before it is processed alone. */
const MAX_ROUND_TRIES = 3;
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
  jobs: Pick<Jobs, 'send' | 'sendMany'>;
  events: EventBus;
  renderer: ActivityRenderer;
  /** Tells the user's open apps (realtime `ActivityCreated`). */
  publish: (userId: string, event: ActivityCreatedEvent) => Promise<void>;
  /** `BILLING_ENABLED`: users without a subscription are limited to their free events. */
  billingEnabled: boolean;
  /** Clips (and uploads processed alone) at once, each with its own ffmpeg (`INGEST_WORKERS`). */
  aloneConcurrency?: number;
  /** Hears that an upload is done with, whatever became of it (the ingest's backlog counts on it). */
  onSettled?: (uploadId: string) => void;
  log: Logger;
  now?: () => Date;
}

/** A job's upload waiting for its round. */
interface Waiting {
  uploadId: string;
  tries: number;
  resolve: (outcome: UploadOutcome) => void;
  reject: (err: unknown) => void;
}

/**
 * Cameras held by one piece of work at a time within this process: a clip (or an upload processed alone)
 * waits for its camera; a round of snapshots takes only cameras nobody holds and leaves the others' files
 * for a later round. `onRelease` hears every release (a round's files may be waiting for that camera).
 */
function createCameraLocks(onRelease: (key: string) => void) {
  const tails = new Map<string, Promise<void>>();

  function hold(key: string, after: Promise<void>): { release: () => void; ready: Promise<void> } {
    let free!: () => void;
    const mine = new Promise<void>((resolve) => (free = resolve));
    const tail = after.then(() => mine);
    tails.set(key, tail);
    return {
      ready: after,
      release() {
        free();
        if (tails.get(key) === tail) tails.delete(key);
        onRelease(key);
      },
    };
  }

  return {
    /** Waits for the camera (in arrival order), then holds it until the answer is called. */
    async acquire(key: string): Promise<() => void> {
      const { release, ready } = hold(key, tails.get(key) ?? Promise.resolve());
      await ready;
      return release;
    },
    /** Holds the camera when nobody does; undefined when somebody does (never waits). */
    tryAcquire(key: string): (() => void) | undefined {
      return tails.has(key) ? undefined : hold(key, Promise.resolve()).release;
    },
  };
}

/** At most `size` of these at once, the rest in arrival order. */
function createLimiter(size: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async function limit<T>(fn: () => Promise<T>): Promise<T> {
    if (active >= size) await new Promise<void>((resolve) => queue.push(resolve));
    else active += 1;
    try {
      return await fn();
    } finally {
      const next = queue.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

const cameraKey = (userId: string, name: string) => `${userId}\n${name.toLowerCase()}`;

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * `ingest.process-upload`: one stored camera file into an activity (issue "Camera event ingest",
 * "Processing"). At least once in, exactly once out: the upload row is locked and must still be pending when
 * its activity is written, in one transaction with the row's new status and the `activity.analyse` job, so a
 * retried or duplicated job never makes a second activity.
 */
export function createUploadProcessor(deps: UploadProcessorDeps) {
  const { repo, storage, log } = deps;
  const now = deps.now ?? (() => new Date());
  const alone = createLimiter(deps.aloneConcurrency ?? 2);

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

  async function announce(userId: string, activityId: string, stored?: ActivityRow): Promise<void> {
    await deps.events.emit('activity.created', { userId, activityId });
    const row = stored ?? (await repo.findById(activityId));
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

  /** One upload by itself (clips, uploads of users limited to free events, rounds that kept failing). */
  async function processAlone(upload: UploadRow, owner: UploadOwner): Promise<UploadOutcome> {
    const name = uploadCameraName(upload.cameraName);
    return alone(async () => {
      // Files of one camera are grouped one at a time here; the transaction's camera lock does it across
      // instances, this only spares the regrouping work within one.
      const release = await cameras.acquire(cameraKey(owner.id, name));
      try {
        return await processForCamera(upload, owner, name);
      } finally {
        release();
      }
    });
  }

  /** `processAlone` from the upload's id (a round that failed hands its uploads here, one by one). */
  async function processAloneById(uploadId: string): Promise<UploadOutcome> {
    const upload = await repo.findUpload(uploadId);
    if (!upload) return 'gone';
    if (upload.status !== 'pending') return 'done';
    const owner = await repo.findOwner(upload.userId);
    if (!owner) return 'gone';
    return processAlone(upload, owner);
  }

  const rounds = createUploadRounds({
    repo,
    cameras: deps.cameras,
    media: deps.media,
    jobs: deps.jobs,
    log,
    now,
    windowMs: GROUPING_WINDOW_MS,
    drop: async (upload) => (await drop(upload), 'dropped'),
    fail: async (upload, err) => ((await fail(upload, err)) === 'failed' ? 'failed' : 'done'),
    async committed(files, created) {
      // The activities hold their own copies of the files now.
      await Promise.all(files.map((f) => deleteObject(f.upload.storageKey)));
      for (const row of created)
        await announce(row.userId, row.id, row).catch((err: unknown) =>
          log.error({ err, activityId: row.id }, 'could not announce a new activity'),
        );
    },
  });

  // Jobs' uploads gather here while a round runs and make the next round: under load a round takes many
  // uploads for the price of a few statements, and an upload that finds nothing running starts at once.
  const waiting: Waiting[] = [];
  /** Snapshots whose camera a clip holds, by camera: they wait for its release, then join the next round. */
  const deferred = new Map<string, Waiting[]>();
  let draining = false;
  const cameras = createCameraLocks((key) => {
    const items = deferred.get(key);
    if (!items) return;
    deferred.delete(key);
    waiting.push(...items);
    void drain();
  });

  function settle(item: Waiting, outcome: Promise<UploadOutcome>): void {
    outcome.then(
      (o) => {
        deps.onSettled?.(item.uploadId);
        item.resolve(o);
      },
      (err: unknown) => {
        deps.onSettled?.(item.uploadId);
        item.reject(err);
      },
    );
  }

  async function drain(): Promise<void> {
    if (draining) return;
    draining = true;
    try {
      while (waiting.length > 0) await round(waiting.splice(0, MAX_ROUND));
    } finally {
      draining = false;
    }
  }

  /** One round: never throws (what it cannot do together, each upload does alone). */
  async function round(items: Waiting[]): Promise<void> {
    const first = new Map<string, Waiting>();
    for (const item of items) {
      // A duplicated job's upload runs after the first run's round, and then finds its upload done.
      if (first.has(item.uploadId)) waiting.push(item);
      else first.set(item.uploadId, item);
    }
    const held = new Map<string, () => void>();
    const batch: { item: Waiting; round: RoundItem }[] = [];
    try {
      const loaded = new Map(
        (await repo.uploadsWithOwners([...first.keys()])).map((l) => [l.upload.id, l] as const),
      );
      for (const item of first.values()) {
        const row = loaded.get(item.uploadId);
        if (!row?.owner) settle(item, Promise.resolve('gone'));
        else if (row.upload.status !== 'pending') settle(item, Promise.resolve('done'));
        else if (
          row.upload.mediaKind === 'video' ||
          (deps.billingEnabled && !row.owner.hasActiveSubscription) ||
          item.tries >= MAX_ROUND_TRIES
        )
          // Clips take ffmpeg's time and free events are counted per new activity: alone, as before, without
          // holding up the round.
          settle(item, processAlone(row.upload, row.owner));
        else {
          const name = uploadCameraName(row.upload.cameraName);
          const key = cameraKey(row.owner.id, name);
          if (!held.has(key)) {
            const release = cameras.tryAcquire(key);
            if (!release) {
              deferred.set(key, [...(deferred.get(key) ?? []), item]);
              continue;
            }
            held.set(key, release);
          }
          batch.push({ item, round: { upload: row.upload, owner: row.owner, name } });
        }
      }
      if (batch.length === 0) return;
      const outcomes = await rounds.run(batch.map((b) => b.round));
      for (const { item } of batch) {
        const outcome = outcomes.get(item.uploadId);
        if (outcome === 'again' || outcome === undefined) waiting.push({ ...item, tries: item.tries + 1 });
        else settle(item, Promise.resolve(outcome));
      }
    } catch (err) {
      log.warn({ err, uploads: batch.length }, 'a round of camera uploads failed; each is processed alone');
      for (const { item } of batch) settle(item, processAloneById(item.uploadId));
    } finally {
      for (const release of held.values()) release();
    }
  }

  return {
    /**
     * The `ingest.process-upload` handler. Snapshots are processed in rounds (see activities.rounds.ts), clips
     * alone; errors other than unreadable media are thrown (retried).
     */
    process(uploadId: string): Promise<UploadOutcome> {
      return new Promise<UploadOutcome>((resolve, reject) => {
        waiting.push({ uploadId, tries: 0, resolve, reject });
        void drain();
      });
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
