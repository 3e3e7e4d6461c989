import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import type { NotificationsService } from './notifications.service.js';

/** An alert's failed push or text, tried again (its retries and their spacing are job-settings.ts'). */
export async function registerNotificationsWorkers(
  jobs: Jobs,
  deps: { notifications: Pick<NotificationsService, 'retryChannel'>; log: Logger },
): Promise<void> {
  const { notifications, log } = deps;
  await jobs.work('notifications.retry-channel', { concurrency: 4 }, async (job) => {
    if (notifications.retryChannel) await notifications.retryChannel(job);
    else log.info({ activityId: job.activityId }, 'alert retry dropped: delivery replaced');
  });
}
