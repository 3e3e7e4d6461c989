import type { Jobs } from '../../platform/jobs.js';
import type { MemoriesService } from './memories.service.js';

/** Every hour, off the hour's rush: memories past their expiry go, with their photos. */
export const PURGE_EXPIRED_CRON = '23 * * * *';

export async function registerMemoriesWorkers(
  jobs: Jobs,
  deps: { memories: Pick<MemoriesService, 'purgeExpired'> },
): Promise<void> {
  await jobs.work('memories.purge-expired', { concurrency: 1 }, async () => {
    await deps.memories.purgeExpired();
  });
}

/** The schedule needs a started queue: call when the app is ready. */
export async function scheduleMemoriesJobs(jobs: Jobs): Promise<void> {
  await jobs.schedule('memories.purge-expired', PURGE_EXPIRED_CRON, {});
}
