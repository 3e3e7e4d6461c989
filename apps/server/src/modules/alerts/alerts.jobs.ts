import { z } from 'zod';
import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import type { EphemeralPurge } from './amnesia-purge.js';
import type { RicherDescriptions } from './llm-rewrite.js';

/** Jobs of the alerts (see platform/jobs.ts). */
declare module '../../platform/jobs.js' {
  interface JobPayloads {
    /** With an LLM: rewrite an alert's sentence from its image and facts, after the alert went out. */
    'ai.describe-alert': { activityId: string };
    /** Hourly: purge the activities kept only for their alert while amnesia mode was on. */
    'ai.purge-ephemeral': Record<string, never>;
  }
}

const activityJobSchema = z.object({ activityId: z.uuid() });

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
 * payload that is not an activity id is dropped (a retry would not fix it); any other failure retries with
 * backoff.
 */
export async function registerAlertsWorkers(jobs: Jobs, deps: AlertsWorkersDeps): Promise<void> {
  const { log } = deps;
  const activityId = (name: string, data: unknown): string | undefined => {
    const parsed = activityJobSchema.safeParse(data);
    if (!parsed.success) log.error({ job: name, data }, 'job without a valid activity id dropped');
    return parsed.data?.activityId;
  };
  const richer = deps.richer;
  if (richer)
    await jobs.work('ai.describe-alert', { concurrency: 2 }, async (data) => {
      const id = activityId('ai.describe-alert', data);
      if (id) await richer.describe(id);
    });
  await jobs.work('ai.purge-ephemeral', { concurrency: 1 }, async () => {
    await deps.purge.purgeDue();
  });
}

export async function scheduleAlertsJobs(jobs: Jobs): Promise<void> {
  await jobs.schedule('ai.purge-ephemeral', PURGE_EPHEMERAL_CRON, {});
}

/** For the alerts: the richer sentence is written after the alert went out, at most once at a time per activity. */
export const requestRicherDescription = (jobs: Jobs) => (activityId: string) =>
  jobs.send('ai.describe-alert', { activityId }, { singletonKey: activityId, retryLimit: 0 });
