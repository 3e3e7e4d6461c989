import type { ActivityCreatedEvent } from '@homesitter/contract';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { EventBus } from '../../platform/events.js';
import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import type { CameraRow } from '../cameras/cameras.repository.js';
import { UnreadableClipError } from '../media/media.module.js';
import { UnreadableImageError } from '../media/media.module.js';
import { ephemeralUntil } from './activities.amnesia.js';
import type { UploadCameras } from '../cameras/camera-arrivals.js';
import {
  joinedActivity,
  newActivity,
  planCameraFiles,
  type JoinableState,
  type PlannedFile,
} from './activities.grouping.js';
import { MissingUploadError, type ActivityMedia, type PreparedMedia } from './activities.media.js';
import type { ActivityRenderer } from './activities.render.js';
import type {
  ActivitiesRepository,
  ActivityPatch,
  ActivityRow,
  LockedCamera,
  NewActivity,
  UploadOwner,
  UploadRow,
} from './activities.repository.js';

/** What became of an upload; the job's log line and the tests read it. */
export type UploadOutcome =
  | 'created' // a new activity
  | 'joined' // added to the camera's activity of the last 10 s
  | 'dropped' // private mode: deleted unprocessed, counted
  | 'held' // no free events: kept 24 h for a subscription
  | 'failed' // the file is not readable media
  | 'done' // already processed by an earlier run (retried or duplicated job)
  | 'gone'; // the upload or its user no longer exists

/** One upload of a round, its owner and the camera name it gave (already made a camera name). */
export interface RoundItem {
  upload: UploadRow;
  owner: UploadOwner;
  name: string;
}

/** What became of a round's upload; `again` means its camera changed under the round: plan it once more. */
export type RoundOutcome = Exclude<UploadOutcome, 'gone'> | 'again';

/** The candidates a plan was made from, as one comparable string. */
function fingerprint(candidates: ActivityRow[]): string {
  return candidates
    .map(
      (c) =>
        `${c.id}:${c.occurredAt.getTime()}:${c.lastFileAt.getTime()}:${c.thumbnailKey !== null}:${c.videoKey !== null}`,
    )
    .sort()
    .join(',');
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

export interface UploadRoundsDeps {
  repo: ActivitiesRepository;
  cameras: UploadCameras;
  media: ActivityMedia;
  storage: ObjectStorage;
  jobs: Pick<Jobs, 'sendMany'>;
  events: EventBus;
  renderer: ActivityRenderer;
  /** Tells the user's open apps (realtime `ActivityCreated`). */
  publish: (userId: string, event: ActivityCreatedEvent) => Promise<void>;
  /** `BILLING_ENABLED`: users without a subscription are limited to their free events. */
  billingEnabled: boolean;
  log: Logger;
  now: () => Date;
  windowMs: number;
}

interface CameraGroup {
  camera: CameraRow;
  owner: UploadOwner;
  plan: PlannedFile[];
  fingerprint: string;
  media: Map<string, PreparedMedia>;
}

/** One activity a group's files go into: a new one whole, or a stored one's patch plus appended snapshots. */
interface ActivityWrite {
  id: string;
  files: PlannedFile[];
  insert?: NewActivity;
  update?: { patch: ActivityPatch; added: string[] };
}

/**
 * The one rule that turns uploads into activities, for a round of snapshots of several cameras and for an
 * upload processed alone (a round of one: a clip, an upload of a user limited to free events, one whose rounds
 * kept failing). Rules first (private mode drops, the camera is registered or stamped), then each camera's
 * files are planned against the activities they may join, free events are checked, the media is made, and one
 * transaction commits it all: the uploads and cameras locked, the plan checked again, new activities inserted
 * (a free event taken for each, amnesia's short life set), joined ones extended, the uploads marked processed
 * and the `analysis.analyse` jobs sent. After commit the originals go and new activities are announced.
 *
 * A round costs a fixed number of statements whatever its number of files: the cameras registered and stamped
 * in two, the activities they may join read in one, every thumbnail made at once (sharp works on libuv's
 * threads), and in the transaction one statement per step (one per joined activity). One file at a time this
 * was about thirteen statements and two transactions per file, on an embedded database that runs each on the
 * main thread.
 */
export function createUploadRounds(deps: UploadRoundsDeps) {
  const { repo, media, storage, log } = deps;

  /** Users limited to free events: a new activity uses one of them. */
  const limited = (owner: UploadOwner) => deps.billingEnabled && !owner.hasActiveSubscription;

  /** Removes an upload's bytes; an upload without media (`key` null) has none. */
  async function deleteObject(key: string | null): Promise<void> {
    if (key === null) return;
    await storage.delete(key).catch((err: unknown) => log.error({ err, key }, 'could not delete an upload'));
  }

  /**
   * Private mode keeps nothing: the bytes go first, then the row says so and the day's counter counts it. The
   * owner's cameras list counts it too ("Private: 3 events not kept today"), so it is told of a change.
   */
  async function drop(upload: UploadRow): Promise<'dropped'> {
    if (upload.storageKey) await storage.delete(upload.storageKey);
    const at = deps.now();
    const dropped = await repo.transaction(async (q) => {
      if (!(await q.finishUpload(upload.id, 'dropped', null, at))) return false;
      await q.bumpCounter(upload.userId, utcDay(at), 'private_mode');
      return true;
    });
    if (dropped) await deps.events.emit('cameras.changed', { userId: upload.userId });
    return 'dropped';
  }

  /** No free event left for a new activity: the upload waits (bytes kept) for a subscription, counted. */
  async function hold(upload: UploadRow): Promise<'held'> {
    const at = deps.now();
    await repo.transaction(async (q) => {
      if (await q.finishUpload(upload.id, 'held', null, at))
        await q.bumpCounter(upload.userId, utcDay(at), 'no_free_events');
    });
    await exhausted(upload.userId);
    return 'held';
  }

  /** Billing tells the user (once per exhaustion) that new events wait for a subscription. */
  async function exhausted(userId: string): Promise<void> {
    await deps.events.emit('free-events.exhausted', { userId });
  }

  async function fail(upload: UploadRow, err: Error): Promise<'failed' | 'done'> {
    // Its bytes may be gone because another run of the same upload finished first.
    if (!(await repo.finishUpload(upload.id, 'failed', null, deps.now()))) return 'done';
    log.warn({ uploadId: upload.id, reason: err.message }, 'camera upload is not readable media; dropped');
    await deleteObject(upload.storageKey);
    return 'failed';
  }

  async function announce(row: ActivityRow): Promise<void> {
    await deps.events.emit('activity.created', { userId: row.userId, activityId: row.id });
    const activity = await deps.renderer.render(row);
    await deps.publish(row.userId, {
      activity_uuid: activity.activity_uuid,
      camera_name: activity.camera_name,
      date_time_utc: activity.date_time_utc,
      description: activity.activity_description,
      thumbnail_image_url: activity.thumbnail_image_url,
    });
  }

  /** The media of a planned file, or why there is none (unreadable bytes fail only that upload). */
  async function prepareAll(
    groups: CameraGroup[],
  ): Promise<{ failed: Map<string, Error>; error: Error | undefined; prepared: PreparedMedia[] }> {
    const failed = new Map<string, Error>();
    const prepared: PreparedMedia[] = [];
    let error: Error | undefined;
    await Promise.all(
      groups.flatMap((g) =>
        g.plan.map(async (p) => {
          try {
            const m = await media.prepare(p.upload, p.activityId, p.needThumbnail);
            g.media.set(p.upload.id, m);
            prepared.push(m);
          } catch (err) {
            if (
              err instanceof UnreadableImageError ||
              err instanceof UnreadableClipError ||
              err instanceof MissingUploadError
            )
              failed.set(p.upload.id, err);
            else error ??= err instanceof Error ? err : new Error(String(err));
          }
        }),
      ),
    );
    return { failed, error, prepared };
  }

  const discard = (list: PreparedMedia[]) => media.discard(list.flatMap((m) => m.keys));

  /**
   * The activities a group's files go into, as the camera is now (`camera`, locked) and its stored activities
   * (`current`): new ones whole (amnesia's short life from `at`), joined ones as a patch plus appended
   * snapshots.
   */
  function writesOf(group: CameraGroup, camera: LockedCamera, current: ActivityRow[], at: Date) {
    const writes: ActivityWrite[] = [];
    const byId = new Map<string, PlannedFile[]>();
    for (const p of group.plan) byId.set(p.activityId, [...(byId.get(p.activityId) ?? []), p]);
    for (const [id, files] of byId) {
      const existing = current.find((c) => c.id === id);
      let rest = files;
      let state: NewActivity & JoinableState;
      if (existing) state = { ...existing };
      else {
        const first = files[0]!;
        const row = newActivity(
          id,
          group.owner.id,
          camera,
          first.upload.receivedAt,
          group.media.get(first.upload.id)!,
          ephemeralUntil(group.owner, at),
        );
        state = {
          ...row,
          thumbnailKey: row.thumbnailKey ?? null,
          imageKeys: row.imageKeys ?? [],
          videoKey: row.videoKey ?? null,
          width: row.width ?? null,
          height: row.height ?? null,
        };
        rest = files.slice(1);
      }
      const patch: ActivityPatch = {};
      for (const f of rest) {
        const step = joinedActivity(state, f.upload.receivedAt, group.media.get(f.upload.id)!);
        Object.assign(state, step);
        Object.assign(patch, step);
      }
      // The maker's verdicts of every file of the event, kept beside what our analysis will see.
      const verdict = [
        ...new Set([...(state.cameraVerdict ?? []), ...files.flatMap((f) => f.upload.cameraVerdict)]),
      ];
      if (verdict.length > (state.cameraVerdict ?? []).length) {
        state.cameraVerdict = verdict;
        patch.cameraVerdict = verdict;
      }
      writes.push(
        existing
          ? { id, files, update: { patch, added: state.imageKeys.slice(existing.imageKeys.length) } }
          : { id, files, insert: state },
      );
    }
    return writes;
  }

  return {
    /**
     * Runs a round; answers each upload's outcome by id. Throws only when the database or storage fails
     * (nothing of the round is then committed, and whatever it wrote is removed).
     */
    async run(items: RoundItem[]): Promise<Map<string, RoundOutcome>> {
      const outcomes = new Map<string, RoundOutcome>();
      const existing = await deps.cameras.named(items.map((i) => ({ userId: i.owner.id, name: i.name })));

      // Rules first: in private mode nothing about the event is kept, not even the camera's last activity.
      const kept: { item: RoundItem; camera: CameraRow | undefined }[] = [];
      for (const [n, item] of items.entries()) {
        const camera = existing[n];
        if (item.owner.isGlobalPrivacyModeEnabled || camera?.isPrivateModeEnabled)
          outcomes.set(item.upload.id, await drop(item.upload));
        else kept.push({ item, camera });
      }
      if (kept.length === 0) return outcomes;

      // Files of a known camera go together; those of a new name together by the name, until it is one.
      const byName = new Map<string, typeof kept>();
      for (const k of kept) {
        const key = k.camera?.id ?? `${k.item.owner.id}\n${k.item.name.toLowerCase()}`;
        byName.set(key, [...(byName.get(key) ?? []), k]);
      }
      const named = [...byName.values()];
      const arrived = await deps.cameras.arrived(
        named.map((list) => ({
          userId: list[0]!.item.owner.id,
          name: list[0]!.item.name,
          existing: list[0]!.camera,
          at: new Date(Math.max(...list.map((k) => k.item.upload.receivedAt.getTime()))),
        })),
      );
      const byCamera = new Map<string, { camera: CameraRow; items: RoundItem[] }>();
      named.forEach((list, n) => {
        const camera = arrived[n]!;
        const group = byCamera.get(camera.id) ?? { camera, items: [] };
        group.items.push(...list.map((k) => k.item));
        byCamera.set(camera.id, group);
      });

      const times = kept.map((k) => k.item.upload.receivedAt.getTime());
      const from = new Date(Math.min(...times));
      const to = new Date(Math.max(...times));
      const candidates = await repo.joinCandidates([...byCamera.keys()], from, to, deps.windowMs);
      let groups: CameraGroup[] = [...byCamera.values()].map(({ camera, items: list }) => {
        const own = candidates.filter((c) => c.cameraId === camera.id);
        return {
          camera,
          owner: list[0]!.owner,
          plan: planCameraFiles(
            own,
            list.map((i) => i.upload),
            deps.windowMs,
          ),
          fingerprint: fingerprint(own),
          media: new Map(),
        };
      });

      // A user known to have no free event left: files that would start an activity are held before any media
      // is made (files joining one of the user's activities are free). The transaction checks it again.
      for (const g of groups) {
        if (!limited(g.owner) || g.owner.remainingFreeEvents > 0) continue;
        const fresh = new Set(g.plan.filter((p) => p.starts).map((p) => p.activityId));
        for (const p of g.plan) if (fresh.has(p.activityId)) outcomes.set(p.upload.id, await hold(p.upload));
        g.plan = g.plan.filter((p) => !fresh.has(p.activityId));
      }
      groups = groups.filter((g) => g.plan.length > 0);
      if (groups.length === 0) return outcomes;

      const { failed, error, prepared } = await prepareAll(groups);
      if (error) {
        await discard(prepared);
        throw error;
      }
      if (failed.size > 0) {
        // A file that does not decode fails alone; the rest of its camera's files are planned again without
        // it (it may have been the one to start their activity or make its thumbnail).
        for (const g of groups) {
          if (!g.plan.some((p) => failed.has(p.upload.id))) continue;
          await discard([...g.media.values()]);
          for (const p of g.plan) {
            const err = failed.get(p.upload.id);
            outcomes.set(p.upload.id, err ? await fail(p.upload, err) : 'again');
          }
        }
        groups = groups.filter((g) => !g.plan.some((p) => failed.has(p.upload.id)));
        if (groups.length === 0) return outcomes;
      }

      const result = await repo
        .transaction(async (q, tx) => {
          const at = deps.now();
          const uploadIds = groups.flatMap((g) => g.plan.map((p) => p.upload.id));
          const pending = await q.lockPendingUploads(uploadIds);
          const locked = await q.lockCameras(groups.map((g) => g.camera.id));
          const current = await q.joinCandidates(
            groups.map((g) => g.camera.id),
            from,
            to,
            deps.windowMs,
          );
          const commit: CameraGroup[] = [];
          const stale: CameraGroup[] = [];
          const held: PlannedFile[] = [];
          const inserts: NewActivity[] = [];
          const done: { uploadId: string; activityId: string }[] = [];
          for (const g of groups) {
            const camera = locked.get(g.camera.id);
            const own = current.filter((c) => c.cameraId === g.camera.id);
            // Another instance processed some of these files or changed the camera's activities since the
            // plan (or the camera is gone): this camera's files are planned again.
            if (
              !camera ||
              !g.plan.every((p) => pending.has(p.upload.id)) ||
              fingerprint(own) !== g.fingerprint
            ) {
              stale.push(g);
              continue;
            }
            commit.push(g);
            for (const w of writesOf(g, camera, own, at)) {
              if (w.update) await q.extendActivity(w.id, w.update.patch, w.update.added);
              else if (w.insert) {
                // A free event is used per new activity, not per file; subscribers use none.
                if (limited(g.owner) && !(await q.takeFreeEvent(g.owner.id))) {
                  for (const f of w.files) {
                    await q.finishUpload(f.upload.id, 'held', null, at);
                    await q.bumpCounter(g.owner.id, utcDay(at), 'no_free_events');
                    held.push(f);
                  }
                  continue;
                }
                inserts.push(w.insert);
              }
              for (const f of w.files) done.push({ uploadId: f.upload.id, activityId: w.id });
            }
          }
          const created = await q.insertActivities(inserts);
          await q.finishUploadsProcessed(done, at);
          const touched = [...new Set(done.map((d) => d.activityId))];
          await deps.jobs.sendMany(
            'analysis.analyse',
            touched.map((activityId) => ({ activityId })),
            { tx },
          );
          return { commit, stale, held, created, pending };
        })
        .catch(async (err: unknown) => {
          await discard(groups.flatMap((g) => [...g.media.values()]));
          throw err;
        });

      for (const g of result.stale) {
        await discard([...g.media.values()]);
        for (const p of g.plan) outcomes.set(p.upload.id, result.pending.has(p.upload.id) ? 'again' : 'done');
      }
      const heldIds = new Set(result.held.map((p) => p.upload.id));
      const heldMedia = result.commit.flatMap((g) =>
        [...g.media.entries()].flatMap(([id, m]) => (heldIds.has(id) ? [m] : [])),
      );
      if (heldMedia.length > 0) await discard(heldMedia);
      for (const id of heldIds) outcomes.set(id, 'held');
      for (const userId of new Set(result.held.map((p) => p.upload.userId))) await exhausted(userId);

      const files = result.commit.flatMap((g) =>
        g.plan
          .filter((p) => !heldIds.has(p.upload.id))
          .map((p) => ({ plan: p, upload: p.upload, media: g.media.get(p.upload.id)! })),
      );
      for (const f of files) outcomes.set(f.upload.id, f.plan.starts ? 'created' : 'joined');
      // The activities hold their own copies of the files now.
      await Promise.all(files.map((f) => deleteObject(f.upload.storageKey)));
      for (const row of result.created)
        await announce(row).catch((err: unknown) =>
          log.error({ err, activityId: row.id }, 'could not announce a new activity'),
        );
      if (files.length > 0) {
        const one = files.length === 1 ? files[0]! : undefined;
        log.info(
          {
            uploads: files.length,
            created: result.created.length,
            activities: new Set(files.map((f) => f.plan.activityId)).size,
            cameras: result.commit.length,
            ...(one && {
              uploadId: one.upload.id,
              activityId: one.plan.activityId,
              kind: one.media.kind,
              transcoded: one.media.transcoded,
            }),
          },
          'camera uploads processed',
        );
      }
      return outcomes;
    },
  };
}
export type UploadRounds = ReturnType<typeof createUploadRounds>;
