import { z } from 'zod';
import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import './ai.jobs.js';
import type { AnalysisService } from './analysis.service.js';

const payloadSchema = z.object({ activityId: z.uuid() });

/**
 * Works `activity.analyse` jobs, `concurrency` at a time (AI_CONCURRENCY): the vision engine runs in its own
 * worker thread, so the event loop only waits for it. A payload that is not an activity id is dropped (a
 * retry would not fix it); any other failure retries with backoff.
 */
export async function registerAnalysisWorker(
  jobs: Jobs,
  analysis: Pick<AnalysisService, 'analyseActivity'>,
  options: { concurrency: number; log: Logger },
): Promise<void> {
  await jobs.work('activity.analyse', { concurrency: options.concurrency }, async (data) => {
    const parsed = payloadSchema.safeParse(data);
    if (!parsed.success) {
      options.log.error({ data }, 'activity.analyse job without a valid activity id dropped');
      return;
    }
    await analysis.analyseActivity(parsed.data.activityId);
  });
}
