import type { Jobs } from '../../platform/jobs.js';
import { CLAIM_SIZE, type UploadProcessor } from './activities.processing.js';
import type { ActivitiesService } from './activities.service.js';

/** Daily retention at 03:17 UTC and the hourly purge of held uploads at minute 7 (off the hour's rush). */
export const RETENTION_CRON = '17 3 * * *';
export const PURGE_HELD_CRON = '7 * * * *';

/**
 * The module's job handlers and schedules. Payloads are checked against job-map.ts before they get here; a
 * failure is thrown and retried with backoff.
 */
export async function registerActivityWorkers(
  jobs: Jobs,
  deps: { processor: UploadProcessor; activities: ActivitiesService },
): Promise<void> {
  const { processor, activities } = deps;
  // Many claimed at once: the processor gathers them into rounds (and runs clips INGEST_WORKERS at a time).
  await jobs.work('activities.process-upload', { concurrency: CLAIM_SIZE }, async ({ uploadId }) => {
    await processor.process(uploadId);
  });
  await jobs.work('activities.retention', { concurrency: 1 }, async () => {
    await activities.purgeExpired();
  });
  await jobs.work('activities.purge-held', { concurrency: 1 }, async () => {
    await processor.purgeHeld();
  });
}

/** The schedules need a started queue: call when the app is ready. */
export async function scheduleActivityJobs(jobs: Jobs): Promise<void> {
  await jobs.schedule('activities.retention', RETENTION_CRON, {});
  await jobs.schedule('activities.purge-held', PURGE_HELD_CRON, {});
}
