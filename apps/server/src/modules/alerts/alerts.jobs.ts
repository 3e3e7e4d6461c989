import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import type { EphemeralPurge } from './amnesia-purge.js';
import type { RicherDescriptions } from './llm-rewrite.js';

/** At minute 17 of every hour (off the top of the hour, where other schedules pile up). */
export const PURGE_EPHEMERAL_CRON = '17 * * * *';

export interface AlertsWorkersDeps {
  /** Present with a language model only. */
  richer?: Pick<RicherDescriptions, 'describe'> | undefined;
  purge: Pick<EphemeralPurge, 'purgeDue'>;
  log: Logger;
}

/**
 * The alerts' jobs: the language model's richer sentence after an alert went out, and amnesia's purge. A
 * failure retries with backoff (payloads are checked against job-map.ts before they get here).
 */
export async function registerAlertsWorkers(jobs: Jobs, deps: AlertsWorkersDeps): Promise<void> {
  const { richer, log } = deps;
  await jobs.work('alerts.describe-alert', { concurrency: 2 }, async ({ activityId }) => {
    // Sent while a language model was configured; without one now, the alert keeps its composed sentence.
    if (richer) await richer.describe(activityId);
    else log.info({ activityId }, 'no language model: the alert keeps its composed sentence');
  });
  await jobs.work('alerts.purge-ephemeral', { concurrency: 1 }, async () => {
    await deps.purge.purgeDue();
  });
}

export async function scheduleAlertsJobs(jobs: Jobs): Promise<void> {
  await jobs.schedule('alerts.purge-ephemeral', PURGE_EPHEMERAL_CRON, {});
}

/** For the alerts: the richer sentence is written after the alert went out, at most once at a time per activity. */
export const requestRicherDescription = (jobs: Jobs) => (activityId: string) =>
  jobs.send('alerts.describe-alert', { activityId }, { singletonKey: activityId, retryLimit: 0 });
