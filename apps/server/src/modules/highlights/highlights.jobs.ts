import { z } from 'zod';
import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import type { HighlightsWriter } from './highlights.writer.js';

/** Jobs of the highlights (see platform/jobs.ts). `at` pins the run's clock (backfills, tests). */
declare module '../../platform/jobs.js' {
  interface JobPayloads {
    /** Every hour at :05: each property's summary of the last complete hours. */
    'highlights.hourly': { at?: string };
    /** Every hour at :10: today's summary so far, and yesterday's in full once the local day has ended. */
    'highlights.daily': { at?: string };
  }
}

const payload = z.object({ at: z.iso.datetime({ offset: true }).optional() });

function clockOf(data: unknown, log: Logger, job: string): Date | undefined | null {
  const parsed = payload.safeParse(data ?? {});
  if (!parsed.success) {
    log.error({ job, data }, 'highlights job with a bad payload dropped');
    return null;
  }
  return parsed.data.at ? new Date(parsed.data.at) : undefined;
}

export async function registerHighlightsWorkers(jobs: Jobs, deps: { writer: HighlightsWriter; log: Logger }) {
  const { writer, log } = deps;
  await jobs.work('highlights.hourly', { concurrency: 1 }, async (data) => {
    const at = clockOf(data, log, 'highlights.hourly');
    if (at !== null) await writer.hourly(at);
  });
  await jobs.work('highlights.daily', { concurrency: 1 }, async (data) => {
    const at = clockOf(data, log, 'highlights.daily');
    if (at !== null) await writer.daily(at);
  });
}

/** The schedules, in UTC: every hour, each user's own local hours and days are worked out per user. */
export async function scheduleHighlightsJobs(jobs: Jobs): Promise<void> {
  await jobs.schedule('highlights.hourly', '5 * * * *', {});
  await jobs.schedule('highlights.daily', '10 * * * *', {});
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The highlights jobs' work, for in-process callers (tests, backfills). */
    highlightsWriter: HighlightsWriter;
  }
}
