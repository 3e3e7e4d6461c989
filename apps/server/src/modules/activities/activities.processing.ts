import type { ActivityCreatedEvent } from '@homesitter/contract';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { EventBus } from '../../platform/events.js';
import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import { normalizeCameraName } from '../cameras/cameras.module.js';
import type { UploadCameras } from '../cameras/camera-arrivals.js';
import { GROUPING_WINDOW_MS } from './activities.grouping.js';
import type { ActivityMedia } from './activities.media.js';
import type { ActivityRenderer } from './activities.render.js';
import type { ActivitiesRepository, UploadOwner, UploadRow } from './activities.repository.js';
import { createUploadRounds, type RoundItem, type UploadOutcome } from './activities.rounds.js';

/** Snapshots a round takes at most (a larger round waits longer for its slowest thumbnail). */
export const MAX_ROUND = 32;
/** `activities.process-upload` jobs claimed at once: a round's worth running and the next one gathering. */
export const CLAIM_SIZE = 2 * MAX_ROUND;
/** Rounds a snapshot is planned in (its camera's activities changed under it) before it is processed alone. */
const MAX_ROUND_TRIES = 3;
/** How long an upload waits for a subscription when its user has no free events left. */
export const HOLD_MS = 24 * 3_600_000;
/** Regroupings a run tolerates when other instances keep changing the camera's latest activity. */
const MAX_PLANS = 3;

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

/**
 * `activities.process-upload`: stored camera files into activities (issue "Camera event ingest", "Processing").
 * This is the scheduling: jobs' uploads gather into rounds of snapshots, clips (and uploads of users limited
 * to free events, or whose rounds kept failing) go alone, a camera is held by one piece of work at a time in
 * this process. What becomes of the uploads is decided by the one rule in activities.rounds.ts, for a round and
 * for an upload alone (a round of one). At least once in, exactly once out: the upload rows are locked and must
 * still be pending when their activities are written, in one transaction with the rows' new status and the
 * `analysis.analyse` jobs, so a retried or duplicated job never makes a second activity.
 */
export function createUploadProcessor(deps: UploadProcessorDeps) {
  const { repo, storage, log } = deps;
  const now = deps.now ?? (() => new Date());
  const alone = createLimiter(deps.aloneConcurrency ?? 2);

  /** Removes an upload's bytes; an upload without media (`key` null) has none. */
  async function deleteObject(key: string | null): Promise<void> {
    if (key === null) return;
    await storage.delete(key).catch((err: unknown) => log.error({ err, key }, 'could not delete an upload'));
  }

  const rounds = createUploadRounds({
    repo,
    cameras: deps.cameras,
    media: deps.media,
    storage,
    jobs: deps.jobs,
    events: deps.events,
    renderer: deps.renderer,
    publish: deps.publish,
    billingEnabled: deps.billingEnabled,
    log,
    now,
    windowMs: GROUPING_WINDOW_MS,
  });

  /** One upload alone, a round of one, planned again while other instances change its camera's activities. */
  async function processForCamera(
    queued: UploadRow,
    owner: UploadOwner,
    name: string,
  ): Promise<UploadOutcome> {
    // Another run of this upload may have finished while this one waited for the camera.
    const upload = await repo.findUpload(queued.id);
    if (!upload) return 'gone';
    if (upload.status !== 'pending') return 'done';
    for (let plan = 1; ; plan++) {
      const outcome = (await rounds.run([{ upload, owner, name }])).get(upload.id);
      if (outcome !== undefined && outcome !== 'again') return outcome;
      if (plan >= MAX_PLANS) throw new Error(`upload ${upload.id}: the camera's activities kept changing`);
    }
  }

  /** One upload by itself (clips, uploads of users limited to free events, rounds that kept failing). */
  async function processAlone(upload: UploadRow, owner: UploadOwner): Promise<UploadOutcome> {
    const name = normalizeCameraName(upload.cameraName);
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
    /** Items the round has to answer for: if it fails (the database went away), each runs alone. */
    const open = new Set(first.values());
    try {
      const loaded = new Map(
        (await repo.uploadsWithOwners([...first.keys()])).map((l) => [l.upload.id, l] as const),
      );
      // Read: from here each item is settled, deferred or in the batch, and only the batch is left to answer.
      open.clear();
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
          const name = normalizeCameraName(row.upload.cameraName);
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
          open.add(item);
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
      log.warn({ err, uploads: open.size }, 'a round of camera uploads failed; each is processed alone');
      // Also those the round had not reached (its first read failed): left unsettled, their jobs would hang.
      for (const item of open) settle(item, processAloneById(item.uploadId));
    } finally {
      for (const release of held.values()) release();
    }
  }

  return {
    /**
     * The `activities.process-upload` handler. Snapshots are processed in rounds, clips alone (both by the rule in
     * activities.rounds.ts); errors other than unreadable media are thrown (retried).
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
        for (const uploadId of released)
          await deps.jobs.send('activities.process-upload', { uploadId }, { tx });
        return released;
      });
      if (ids.length > 0) log.info({ userId, uploads: ids.length }, 'held camera uploads released');
      return ids.length;
    },

    /** `activities.purge-held`: uploads held for more than 24 h are deleted, bytes and row. */
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
