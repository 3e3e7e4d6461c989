import type { Activity, ActivitiesPagination, listActivitiesQuerySchema } from '@homesitter/contract';
import type { z } from 'zod';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import { cameraErrors } from '../cameras/cameras.module.js';
import { userErrors } from '../users/users.module.js';
import { activityErrors } from './activities.errors.js';
import { activityMediaPrefix } from './activities.media.js';
import { captionFor, type CaptionReader } from './activities.captions.js';
import type { ActivityRenderer } from './activities.render.js';
import type { ActivitiesRepository, ActivityRef, ActivityRow } from './activities.repository.js';

export interface ActivitiesServiceDeps {
  repo: ActivitiesRepository;
  renderer: ActivityRenderer;
  storage: ObjectStorage;
  events: EventBus;
  /** `RETENTION_DAYS`: activities, their media and uploads older than this are purged daily. */
  retentionDays: number;
  log: Logger;
  now?: () => Date;
}

/** The list query after validation (page and pageSize have their defaults). */
export type ActivitiesQuery = z.output<typeof listActivitiesQuerySchema>;

/** Activities deleted per round: their media folders go first, then the rows. */
const DELETE_BATCH = 200;

/** Reading, deleting and purging activities (camera events). */
export function createActivitiesService(deps: ActivitiesServiceDeps) {
  const { repo, renderer, storage, log } = deps;
  /** The activity as the API shows it, captioned in the reader's language as it is now. */
  const rendered = async (row: ActivityRow, reader: CaptionReader | undefined) => {
    const activity = await renderer.render(row);
    return reader
      ? { ...activity, activity_description_in_preferred_language: captionFor(row, reader) }
      : activity;
  };
  const now = deps.now ?? (() => new Date());

  /** Media folders first (so no row is left pointing at nothing), then the rows. */
  async function remove(refs: ActivityRef[]): Promise<number> {
    await Promise.all(refs.map((a) => storage.deletePrefix(activityMediaPrefix(a.userId, a.id))));
    return repo.deleteActivities(refs.map((a) => a.id));
  }

  async function removeAll(next: () => Promise<ActivityRef[]>): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await next();
      if (batch.length === 0) return total;
      total += await remove(batch);
      if (batch.length < DELETE_BATCH) return total;
    }
  }

  // A renamed camera's events show the new name (the list filters and alerts read it).
  deps.events.on('camera.renamed', ({ userId, cameraId, to }) => repo.renameCamera(userId, cameraId, to));

  return {
    /** Newest first; one query per page, one row past it telling whether there is more. */
    async list(
      subject: string,
      query: ActivitiesQuery,
    ): Promise<{ data: Activity[]; pagination: ActivitiesPagination }> {
      const { page, pageSize } = query;
      const rows = await repo.listPage(
        subject,
        {
          cameraName: query.camera_name,
          siteId: query.site_uuid,
          from: query.from === undefined ? undefined : new Date(query.from),
          to: query.to === undefined ? undefined : new Date(query.to),
        },
        (page - 1) * pageSize,
        pageSize + 1,
      );
      // Nothing at all may also mean no profile yet: only then is that asked.
      if (rows.length === 0 && !(await repo.findUserIdBySubject(subject))) throw userErrors.notFound();
      const hasMore = rows.length > pageSize;
      const reader = await repo.reader({ subject });
      const data = await Promise.all(rows.slice(0, pageSize).map((row) => rendered(row, reader)));
      return { data, pagination: { page, pageSize, hasMore } };
    },

    async get(subject: string, activityId: string): Promise<Activity> {
      const row = await repo.findBySubject(subject, activityId);
      if (!row) throw activityErrors.notFound();
      return rendered(row, await repo.reader({ subject }));
    },

    /** "Delete history" in a camera's settings: every activity of the camera, with its media. */
    async deleteCameraHistory(subject: string, cameraName: string): Promise<{ deleted: number }> {
      const userId = await repo.findUserIdBySubject(subject);
      if (!userId) throw userErrors.notFound();
      const cameraId = await repo.findCameraId(userId, cameraName.trim());
      if (!cameraId) throw cameraErrors.notFound();
      const deleted = await removeAll(() => repo.cameraActivities(userId, cameraId, DELETE_BATCH));
      log.info({ userId, cameraId, deleted }, 'camera history deleted');
      return { deleted };
    },

    /** Deletes the given activities with their media (e.g. the AI's short-lived amnesia-mode events). */
    deleteActivities: (refs: ActivityRef[]) => remove(refs),

    /**
     * `activities.retention`: activities (with their media) and camera uploads older than RETENTION_DAYS.
     * Upload rows go before their bytes, so none is left pointing at a deleted file.
     */
    async purgeExpired(): Promise<{ activities: number; uploads: number }> {
      const cutoff = new Date(now().getTime() - deps.retentionDays * 86_400_000);
      const activities = await removeAll(() => repo.activitiesBefore(cutoff, DELETE_BATCH));
      let uploads = 0;
      for (;;) {
        const batch = await repo.uploadsBefore(cutoff, DELETE_BATCH);
        if (batch.length === 0) break;
        const deleted = await repo.deleteUploads(batch.map((u) => u.id));
        // A processed upload's bytes were removed when its activity got its own copy.
        await Promise.all(
          deleted.flatMap((u) =>
            u.status !== 'processed' && u.storageKey ? [storage.delete(u.storageKey)] : [],
          ),
        );
        uploads += deleted.length;
        if (batch.length < DELETE_BATCH) break;
      }
      if (activities + uploads > 0) log.info({ activities, uploads, cutoff }, 'retention purge done');
      return { activities, uploads };
    },
  };
}
export type ActivitiesService = ReturnType<typeof createActivitiesService>;
