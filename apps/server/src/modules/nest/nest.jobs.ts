import type { Jobs } from '../../platform/jobs.js';
import type { NestService } from './nest.service.js';

/** Every five minutes: devices added or removed in the Google Home app show up or go within minutes. */
export const SYNC_NEST_DEVICES_CRON = '*/5 * * * *';

export async function registerNestWorkers(
  jobs: Jobs,
  deps: { nest: Pick<NestService, 'sync' | 'syncAll'> },
): Promise<void> {
  await jobs.work('nest.sync-devices', { concurrency: 1 }, async ({ userId }) => {
    if (userId) await deps.nest.sync(userId);
    else await deps.nest.syncAll();
  });
}

/** The schedule needs a started queue: call when the app is ready. */
export async function scheduleNestJobs(jobs: Jobs): Promise<void> {
  await jobs.schedule('nest.sync-devices', SYNC_NEST_DEVICES_CRON, {});
}
