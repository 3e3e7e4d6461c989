import type { Config } from './config.js';
import type { JobsOptions } from './jobs.js';

/**
 * How many retries, the first `delaySeconds` after the failure and each about twice the one before (pg-boss
 * backoff: delay · 2^n, plus up to as much again of jitter), it takes until `windowSeconds` have passed.
 */
export function retriesWithin(delaySeconds: number, windowSeconds: number): number {
  let retries = 0;
  let waited = 0;
  while (waited < windowSeconds && retries < 16) {
    waited += delaySeconds * 2 ** retries;
    retries += 1;
  }
  return retries;
}

/**
 * The queue settings the configuration decides (docs/operations.md, "Jobs"):
 * - expiry of the two jobs of an upload's path, so a job an instance was running when it died is retried by
 *   another after minutes, not pg-boss's 15: processing one upload (probe, thumbnail, a row) takes seconds,
 *   analysis (vision on every image of an activity, language model, alert delivery) up to a few minutes;
 * - pg-boss's maintenance, which notices those expired jobs, every JOB_MAINTENANCE_SECONDS instead of 2 min;
 * - an alert's failed push or text tried again with backoff over NOTIFY_RETRY_WINDOW_SECONDS.
 */
export function jobSettingsFromConfig(
  config: Config,
): Pick<JobsOptions, 'expireInSeconds' | 'retryPolicy' | 'maintenanceIntervalSeconds'> {
  return {
    expireInSeconds: {
      'activities.process-upload': config.JOB_EXPIRE_UPLOAD_SECONDS,
      'analysis.analyse': config.JOB_EXPIRE_ANALYSIS_SECONDS,
    },
    retryPolicy: {
      'notifications.retry-channel': {
        retryDelaySeconds: config.NOTIFY_RETRY_DELAY_SECONDS,
        retryLimit: retriesWithin(config.NOTIFY_RETRY_DELAY_SECONDS, config.NOTIFY_RETRY_WINDOW_SECONDS),
      },
    },
    maintenanceIntervalSeconds: config.JOB_MAINTENANCE_SECONDS,
  };
}
