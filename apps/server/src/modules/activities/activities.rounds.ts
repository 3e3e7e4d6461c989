import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import { EPHEMERAL_ACTIVITY_HOURS } from '../../platform/db/schema.js';
import type { CameraRow } from '../cameras/cameras.repository.js';
import { UnreadableImageError } from '../media/images.js';
import type { UploadCameras } from './activities.cameras.js';
import {
  joinedActivity,
  newActivity,
  planCameraFiles,
  type JoinableState,
  type PlannedFile,
} from './activities.grouping.js';
import { MissingUploadError, type ActivityMedia, type PreparedMedia } from './activities.media.js';
import type {
  ActivitiesRepository,
  ActivityPatch,
  ActivityRow,
  NewActivity,
  UploadOwner,
  UploadRow,
} from './activities.repository.js';

/** One snapshot of a round, its owner and the camera name it gave (already made a camera name). */
export interface RoundItem {
  upload: UploadRow;
  owner: UploadOwner;
  name: string;
}

/** What became of a round's upload; `again` means its camera changed under the round: plan it once more. */
export type RoundOutcome = 'created' | 'joined' | 'dropped' | 'failed' | 'done' | 'again';

/** The candidates a plan was made from, as one comparable string. */
function fingerprint(candidates: ActivityRow[]): string {
  return candidates
    .map((c) => `${c.id}:${c.occurredAt.getTime()}:${c.lastFileAt.getTime()}:${c.thumbnailKey !== null}`)
    .sort()
    .join(',');
}

export interface UploadRoundsDeps {
  repo: ActivitiesRepository;
  cameras: UploadCameras;
  media: ActivityMedia;
  jobs: Pick<Jobs, 'sendMany'>;
  log: Logger;
  now: () => Date;
  windowMs: number;
  /** The processor's own steps, shared with uploads processed alone. */
  drop: (upload: UploadRow) => Promise<'dropped'>;
  fail: (upload: UploadRow, err: Error) => Promise<'failed' | 'done'>;
  /** After commit: the uploads' originals go, new activities are announced. */
  committed: (done: { upload: UploadRow; media: PreparedMedia }[], created: ActivityRow[]) => Promise<void>;
}

interface CameraGroup {
  camera: CameraRow;
  owner: UploadOwner;
  plan: PlannedFile[];
  fingerprint: string;
  media: Map<string, PreparedMedia>;
}

/**
 * A round: snapshots of several cameras (each camera held by the round alone within this process) become
 * activities together, in a fixed number of statements whatever their number: the cameras registered and
 * stamped in two, the activities they may join read in one, every thumbnail made at once (sharp works on
 * libuv's threads), and one transaction that locks the uploads and cameras, checks the plan still holds,
 * inserts the new activities in one statement, extends each joined one once, marks every upload processed in
 * one statement and sends the `activity.analyse` jobs in one. One file at a time this was about thirteen
 * statements and two transactions per file, on an embedded database that runs each on the main thread.
 */
export function createUploadRounds(deps: UploadRoundsDeps) {
  const { repo, media, log } = deps;

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
            if (err instanceof UnreadableImageError || err instanceof MissingUploadError)
              failed.set(p.upload.id, err);
            else error ??= err instanceof Error ? err : new Error(String(err));
          }
        }),
      ),
    );
    return { failed, error, prepared };
  }

  const discard = (list: PreparedMedia[]) => media.discard(list.flatMap((m) => m.keys));

  /** The rows a group's files make: new activities whole, joined ones as a patch plus appended snapshots. */
  function writesOf(group: CameraGroup, current: ActivityRow[], at: Date) {
    const inserts: NewActivity[] = [];
    const updates: { id: string; patch: ActivityPatch; added: string[] }[] = [];
    const byId = new Map<string, PlannedFile[]>();
    for (const p of group.plan) byId.set(p.activityId, [...(byId.get(p.activityId) ?? []), p]);
    for (const [id, files] of byId) {
      const existing = current.find((c) => c.id === id);
      const ephemeralUntil = group.owner.isAmnesiaModeEnabled
        ? new Date(at.getTime() + EPHEMERAL_ACTIVITY_HOURS * 3_600_000)
        : null;
      let rest = files;
      let state: NewActivity & JoinableState;
      if (existing) state = { ...existing };
      else {
        const first = files[0]!;
        const row = newActivity(
          id,
          group.owner.id,
          group.camera,
          first.upload.receivedAt,
          group.media.get(first.upload.id)!,
          ephemeralUntil,
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
      if (existing) updates.push({ id, patch, added: state.imageKeys.slice(existing.imageKeys.length) });
      else inserts.push(state);
    }
    return { inserts, updates };
  }

  return {
    /**
     * Runs a round; answers each upload's outcome by id. Throws only when the database or storage fails
     * (nothing of the round is then committed, and whatever it wrote is removed).
     */
    async run(items: RoundItem[]): Promise<Map<string, RoundOutcome>> {
      const outcomes = new Map<string, RoundOutcome>();
      const existing = await repo.camerasNamed(items.map((i) => ({ userId: i.owner.id, name: i.name })));

      // Rules first: in private mode nothing about the event is kept, not even the camera's last activity.
      const kept: { item: RoundItem; camera: CameraRow | undefined }[] = [];
      for (const [n, item] of items.entries()) {
        const camera = existing[n];
        if (item.owner.isGlobalPrivacyModeEnabled || camera?.isPrivateModeEnabled)
          outcomes.set(item.upload.id, await deps.drop(item.upload));
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
      const arrived = await deps.cameras.arrivedAll(
        named.map((list) => ({
          userId: list[0]!.item.owner.id,
          name: list[0]!.item.name,
          existing: list[0]!.camera,
          at: new Date(Math.max(...list.map((k) => k.item.upload.receivedAt.getTime()))),
        })),
        repo,
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
            outcomes.set(p.upload.id, err ? await deps.fail(p.upload, err) : 'again');
          }
        }
        groups = groups.filter((g) => !g.plan.some((p) => failed.has(p.upload.id)));
        if (groups.length === 0) return outcomes;
      }

      const at = deps.now();
      const result = await repo
        .transaction(async (q, tx) => {
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
          const inserts: NewActivity[] = [];
          const done: { uploadId: string; activityId: string }[] = [];
          for (const g of groups) {
            const own = current.filter((c) => c.cameraId === g.camera.id);
            // Another instance processed some of these files or changed the camera's activities since the
            // plan (or the camera is gone): this camera's files are planned again.
            const holds =
              locked.has(g.camera.id) &&
              g.plan.every((p) => pending.has(p.upload.id)) &&
              fingerprint(own) === g.fingerprint;
            if (!holds) {
              stale.push(g);
              continue;
            }
            commit.push(g);
            const writes = writesOf(g, own, at);
            inserts.push(...writes.inserts);
            for (const u of writes.updates) await q.extendActivity(u.id, u.patch, u.added);
            for (const p of g.plan) done.push({ uploadId: p.upload.id, activityId: p.activityId });
          }
          const created = await q.insertActivities(inserts);
          await q.finishUploadsProcessed(done, at);
          const touched = [...new Set(done.map((d) => d.activityId))];
          await deps.jobs.sendMany(
            'activity.analyse',
            touched.map((activityId) => ({ activityId })),
            { tx },
          );
          return { commit, stale, created, pending };
        })
        .catch(async (err: unknown) => {
          await discard(groups.flatMap((g) => [...g.media.values()]));
          throw err;
        });

      for (const g of result.stale) {
        await discard([...g.media.values()]);
        for (const p of g.plan) outcomes.set(p.upload.id, result.pending.has(p.upload.id) ? 'again' : 'done');
      }
      const files = result.commit.flatMap((g) =>
        g.plan.map((p) => ({ plan: p, upload: p.upload, media: g.media.get(p.upload.id)! })),
      );
      for (const f of files) outcomes.set(f.upload.id, f.plan.starts ? 'created' : 'joined');
      await deps.committed(files, result.created);
      if (files.length > 0)
        log.info(
          {
            uploads: files.length,
            created: result.created.length,
            activities: new Set(files.map((f) => f.plan.activityId)).size,
            cameras: result.commit.length,
          },
          'camera uploads processed',
        );
      return outcomes;
    },
  };
}
export type UploadRounds = ReturnType<typeof createUploadRounds>;
