import type { JobRunner } from '../../platform/jobs.js';
import type { AnalysisService } from './analysis.service.js';

export interface AnalysisWorkerDeps {
  /** Absent, `analysis.analyse` jobs stay queued (tests of what processing itself stores). */
  analysis: Pick<AnalysisService, 'analyseActivity'> | undefined;
  /** `analysis.analyse` jobs at once (AI_CONCURRENCY). */
  concurrency: number;
}

/**
 * `analysis.analyse` runs `concurrency` at a time: the vision engine works in its own process, so the event
 * loop only waits for it. A failure retries with backoff (payloads are checked against job-map.ts first).
 */
export async function registerAnalysisWorker(
  jobs: Pick<JobRunner, 'work' | 'leaveQueued'>,
  deps: AnalysisWorkerDeps,
): Promise<void> {
  const { analysis } = deps;
  if (!analysis) return jobs.leaveQueued('analysis.analyse');
  await jobs.work('analysis.analyse', { concurrency: deps.concurrency }, ({ activityId }) =>
    analysis.analyseActivity(activityId),
  );
}
