import type { Jobs } from '../../platform/jobs.js';
import type { RecurringFacesService } from './recurring-faces.service.js';

/** Every hour at :35 (off the highlights' :05 and :10); each owner is offered at their own evening hour. */
export const RECURRING_FACES_CRON = '35 * * * *';

export async function registerRecurringFacesWorkers(
  jobs: Jobs,
  deps: { recurring: Pick<RecurringFacesService, 'run'> },
): Promise<void> {
  await jobs.work('recurring-faces.offer', { concurrency: 1 }, async ({ at }) => {
    await deps.recurring.run(at ? new Date(at) : undefined);
  });
}

/** The schedule needs a started queue: call when the app is ready. */
export async function scheduleRecurringFacesJobs(jobs: Jobs): Promise<void> {
  await jobs.schedule('recurring-faces.offer', RECURRING_FACES_CRON, {});
}
