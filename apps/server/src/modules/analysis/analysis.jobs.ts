import { z } from 'zod';
import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import type { AnalysisService } from './analysis.service.js';

/** The analysis' job (see platform/jobs.ts). */
declare module '../../platform/jobs.js' {
  interface JobPayloads {
    /** Look at an activity, store what was seen and alert the owner. Sent by activities with the activity. */
    'activity.analyse': { activityId: string };
  }
}

const activityJobSchema = z.object({ activityId: z.uuid() });

export interface AnalysisWorkerDeps {
  /** Absent, `activity.analyse` jobs stay queued (tests of what processing itself stores). */
  analysis: Pick<AnalysisService, 'analyseActivity'> | undefined;
  /** `activity.analyse` jobs at once (AI_CONCURRENCY). */
  concurrency: number;
  log: Logger;
}

/**
 * `activity.analyse` runs `concurrency` at a time: the vision engine works in its own worker thread, so the
 * event loop only waits for it. A payload that is not an activity id is dropped (a retry would not fix it);
 * any other failure retries with backoff.
 */
export async function registerAnalysisWorker(jobs: Jobs, deps: AnalysisWorkerDeps): Promise<void> {
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
}
