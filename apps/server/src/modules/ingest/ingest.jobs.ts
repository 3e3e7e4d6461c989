import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import type { IngestService } from './ingest.service.js';

/** Every 10 minutes, off the hour's rush; and once when the app is ready (see scheduleIngestJobs). */
export const SWEEP_ORPHANS_CRON = '3-59/10 * * * *';

export async function registerIngestWorkers(
  jobs: Jobs,
  deps: { ingest: IngestService; log: Logger },
): Promise<void> {
  await jobs.work('ingest.sweep-orphans', { concurrency: 1 }, async () => {
    await deps.ingest.sweepOrphans();
  });
}

/** The schedule needs a started queue: call when the app is ready. A sweep also runs right away. */
export async function scheduleIngestJobs(jobs: Jobs): Promise<void> {
  await jobs.schedule('ingest.sweep-orphans', SWEEP_ORPHANS_CRON, {});
  await jobs.send('ingest.sweep-orphans', {}, { singletonKey: 'startup' });
}
