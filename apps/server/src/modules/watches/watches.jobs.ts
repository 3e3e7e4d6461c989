import type { Jobs } from '../../platform/jobs.js';
import type { WatchesService } from './watches.service.js';

/** Every ten minutes, off the top of the hour: running watches whose time is up are ended. */
export const EXPIRE_WATCHES_CRON = '3-59/10 * * * *';

export async function registerWatchesWorkers(
  jobs: Jobs,
  deps: { watches: Pick<WatchesService, 'expire'> },
): Promise<void> {
  await jobs.work('watches.expire', { concurrency: 1 }, async ({ at }) => {
    await deps.watches.expire(at ? new Date(at) : undefined);
  });
}

/** The schedule needs a started queue: call when the app is ready. */
export async function scheduleWatchesJobs(jobs: Jobs): Promise<void> {
  await jobs.schedule('watches.expire', EXPIRE_WATCHES_CRON, {});
}
