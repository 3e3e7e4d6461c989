import type { Jobs } from '../../platform/jobs.js';
import type { HighlightsRefresh } from './highlights.refresh.js';
import type { HighlightsWriter } from './highlights.writer.js';

export async function registerHighlightsWorkers(
  jobs: Jobs,
  deps: { writer: HighlightsWriter; refresh: Pick<HighlightsRefresh, 'started'> },
) {
  const { writer, refresh } = deps;
  // `at` pins the run's clock (backfills, tests); without it the run is for now.
  const clock = (at: string | undefined) => (at ? new Date(at) : undefined);
  await jobs.work(
    'highlights.hourly',
    { concurrency: 1 },
    async ({ at }) => void (await writer.hourly(clock(at))),
  );
  await jobs.work(
    'highlights.daily',
    { concurrency: 1 },
    async ({ at }) => void (await writer.daily(clock(at))),
  );
  await jobs.work('highlights.relanguage', { concurrency: 1 }, async ({ userId, at }) => {
    await writer.rewriteRecent(userId, clock(at));
  });
  await jobs.work('highlights.refresh', { concurrency: 2 }, async ({ userId, since, at }) => {
    refresh.started(userId);
    await writer.refresh(userId, new Date(since), clock(at));
  });
}

/** The schedules, in UTC: every hour, each user's own local hours and days are worked out per user. */
export async function scheduleHighlightsJobs(jobs: Jobs): Promise<void> {
  await jobs.schedule('highlights.hourly', '5 * * * *', {});
  await jobs.schedule('highlights.daily', '10 * * * *', {});
}
