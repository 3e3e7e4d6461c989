import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import type { Pubsub } from './nest.pubsub.js';
import type { NestService } from './nest.service.js';

/** Every five minutes: devices added or removed in the Google Home app show up or go within minutes. */
export const SYNC_NEST_DEVICES_CRON = '*/5 * * * *';

export async function registerNestWorkers(
  jobs: Jobs,
  deps: { nest: Pick<NestService, 'sync' | 'syncAll'> },
): Promise<void> {
  await jobs.work('nest.sync-devices', { concurrency: 1 }, async ({ userId }) => {
    if (userId) await deps.nest.sync(userId);
    else await deps.nest.syncAll();
  });
}

/** The schedule needs a started queue: call when the app is ready. */
export async function scheduleNestJobs(jobs: Jobs): Promise<void> {
  await jobs.schedule('nest.sync-devices', SYNC_NEST_DEVICES_CRON, {});
}

/**
 * The Pub/Sub pull loop (not a queued job: Pub/Sub is the queue): each message is acknowledged once its
 * activity is committed or it was dropped on purpose; one that failed is left for Pub/Sub to deliver again.
 * Answers the stop, which resolves when the loop has ended.
 */
export function startNestPuller(deps: {
  pubsub: Pubsub;
  token: () => Promise<string>;
  handle: (data: string | undefined) => Promise<void>;
  log: Logger;
  /** After a failed pull: waited before the next (Pub/Sub or the network down). */
  retryMs?: number;
}): () => Promise<void> {
  const stop = new AbortController();
  const retryMs = deps.retryMs ?? 10_000;
  const loop = (async () => {
    while (!stop.signal.aborted) {
      try {
        const token = await deps.token();
        const messages = await deps.pubsub.pull(token, stop.signal);
        const done: string[] = [];
        for (const m of messages) {
          try {
            await deps.handle(m.message.data);
            done.push(m.ackId);
          } catch (err) {
            deps.log.warn(
              { err, messageId: m.message.messageId },
              'nest: event not taken; Pub/Sub redelivers it',
            );
          }
        }
        await deps.pubsub.acknowledge(token, done);
      } catch (err) {
        if (stop.signal.aborted) break;
        deps.log.warn({ err: (err as Error).message }, 'nest: Pub/Sub pull failed');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, retryMs);
          stop.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    }
  })();
  return async () => {
    stop.abort();
    await loop;
  };
}
