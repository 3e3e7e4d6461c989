import type { Llm } from '../../adapters/llm/llm.js';
import { roundedExpiry } from '../../adapters/storage/storage.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { MediaApi } from '../media/media.module.js';
import { createSignedUrlCache } from '../media/media.module.js';
import type { UsersApi } from '../users/users.module.js';
import { registerHighlightsWorkers, scheduleHighlightsJobs } from './highlights.jobs.js';
import { createHighlightsRefresh } from './highlights.refresh.js';
import { createHighlightsRepository } from './highlights.repository.js';
import { registerHighlightsRoutes } from './highlights.routes.js';
import { createHighlightsService } from './highlights.service.js';
import { createHighlightsWriter } from './highlights.writer.js';
import { createLlmSummarizer } from './llm-summary.js';

export interface HighlightsNeeds {
  users: Pick<UsersApi, 'getProfile'>;
  media: Pick<MediaApi, 'signer'>;
  llm: Llm | undefined;
}

/**
 * Hourly and daily highlights of each property (written by jobs at :05 and :10, and the hour and day of each
 * new, analysed or corrected activity again soon after), and their API. Each write is announced (`summary.ready`) so open apps refetch the day.
 */
export function createHighlightsModule(context: ModuleContext, needs: HighlightsNeeds) {
  const { config, events, log, storage } = context;
  const { signer } = needs.media;
  const repo = createHighlightsRepository(context.database.db);
  const signed = (sign: (key: string, ttl: number) => Promise<string> | string) =>
    createSignedUrlCache({ sign, urlTtlSeconds: config.MEDIA_URL_TTL, now: () => new Date() }).url;
  const highlights = createHighlightsService({
    repo,
    users: needs.users,
    media: {
      file: signed((key, ttl) => storage.signedUrl(key, ttl)),
      playlist: signed((key, ttl) => signer.url(key, roundedExpiry(ttl))),
    },
  });
  const writer = createHighlightsWriter({
    repo,
    log,
    summarizer: needs.llm && createLlmSummarizer({ llm: needs.llm, log }),
    onWritten: (written) => events.emit('summary.ready', written),
  });
  const refresh = createHighlightsRefresh({
    jobs: context.jobs,
    log,
    delaySeconds: config.HIGHLIGHTS_REFRESH_DELAY_SECONDS,
  });
  events.on('activity.created', ({ userId }) => refresh.request(userId));
  // Summaries are text in the owner's language: a change of it rewrites the last week's (a job, off the request).
  events.on('user.language-changed', async ({ userId }) => {
    await context.jobs.send('highlights.relanguage', { userId });
  });
  // An analysis that finished late, or a correction ("that was Barack"), shows as soon as a new event would.
  events.on('activity.updated', ({ userId, occurredAt }) => refresh.request(userId, occurredAt));
  return {
    /** The jobs' work, for in-process callers (tests, backfills). */
    api: writer,
    routes: (app, { guards }) => registerHighlightsRoutes(app, { highlights, guards }),
    workers: (jobs) => registerHighlightsWorkers(jobs, { writer, refresh }),
    schedule: scheduleHighlightsJobs,
  } satisfies AppModule<unknown>;
}
