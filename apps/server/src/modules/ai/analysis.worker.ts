import { z } from 'zod';
import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import './ai.jobs.js';
import type { EphemeralPurge } from './amnesia.service.js';
import type { AnalysisService } from './analysis.service.js';
import type { RicherDescriptions } from './richer-descriptions.js';

const activityJobSchema = z.object({ activityId: z.uuid() });

/** At minute 17 of every hour (off the top of the hour, where other schedules pile up). */
export const PURGE_EPHEMERAL_CRON = '17 * * * *';

export interface AiWorkersDeps {
  /** Absent, `activity.analyse` jobs stay queued (tests of what processing itself stores). */
  analysis: Pick<AnalysisService, 'analyseActivity'> | undefined;
  /** Present with a language model only. */
  richer?: Pick<RicherDescriptions, 'describe'> | undefined;
  purge: Pick<EphemeralPurge, 'purgeDue'>;
  /** `activity.analyse` jobs at once (AI_CONCURRENCY). */
  concurrency: number;
  log: Logger;
}

/**
 * The AI's jobs. `activity.analyse` runs `concurrency` at a time: the vision engine works in its own worker
 * thread, so the event loop only waits for it. A payload that is not an activity id is dropped (a retry would
 * not fix it); any other failure retries with backoff.
 */
export async function registerAiWorkers(jobs: Jobs, deps: AiWorkersDeps): Promise<void> {
  const { log } = deps;
  const activityId = (name: string, data: unknown): string | undefined => {
    const parsed = activityJobSchema.safeParse(data);
    if (!parsed.success) log.error({ job: name, data }, 'job without a valid activity id dropped');
    return parsed.data?.activityId;
  };
  const analysis = deps.analysis;
  if (analysis)
    await jobs.work('activity.analyse', { concurrency: deps.concurrency }, async (data) => {
      const id = activityId('activity.analyse', data);
      if (id) await analysis.analyseActivity(id);
    });
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

export async function scheduleAiJobs(jobs: Jobs): Promise<void> {
  await jobs.schedule('ai.purge-ephemeral', PURGE_EPHEMERAL_CRON, {});
}

/** For the alerts: the richer sentence is written after the alert went out, at most once at a time per activity. */
export const requestRicherDescription = (jobs: Jobs) => (activityId: string) =>
  jobs.send('ai.describe-alert', { activityId }, { singletonKey: activityId, retryLimit: 0 });
