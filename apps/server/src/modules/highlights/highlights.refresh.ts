/**
 * Keeps today's highlights up with the events: a user's new activity asks for a `highlights.refresh` job
 * `delaySeconds` later, and the activities that come while it waits join that run instead of queueing their
 * own, so a burst of events costs one rewrite and the first event of a quiet day shows within the delay
 * (plus the queue's poll).
 *
 * The waiting runs are remembered here, in this instance: pg-boss 10 drops a second job with the same
 * `singletonKey` only on queues with a `short` policy or with `singletonSeconds`, neither of which the jobs
 * wrapper offers. With several instances each may queue its own run for the same burst, which is harmless
 * (the rewrite is idempotent). A run lost with this instance's memory is still in the queue; one whose job
 * went elsewhere or was lost is forgotten once it is overdue, so the next activity asks again.
 */
import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';

export interface HighlightsRefreshDeps {
  jobs: Pick<Jobs, 'send'>;
  log: Logger;
  delaySeconds: number;
  now?: () => Date;
}

export function createHighlightsRefresh(deps: HighlightsRefreshDeps) {
  const { jobs, log, delaySeconds } = deps;
  const now = deps.now ?? (() => new Date());
  /** User id → when the run queued for them is due. */
  const waiting = new Map<string, number>();

  return {
    /**
     * A new or changed activity of the user's: its hour and day are rewritten within `delaySeconds` (one run
     * per burst). `occurredAt` is the activity's time when it is older than now (a correction, a late analysis).
     */
    async request(userId: string, occurredAt?: Date): Promise<void> {
      const at = now();
      const due = waiting.get(userId);
      if (due !== undefined && at.getTime() <= due) return;
      waiting.set(userId, at.getTime() + delaySeconds * 1000);
      const since = occurredAt && occurredAt < at ? occurredAt : at;
      try {
        await jobs.send(
          'highlights.refresh',
          { userId, since: since.toISOString() },
          { startAfterSeconds: delaySeconds },
        );
      } catch (err) {
        waiting.delete(userId);
        // The hourly schedule rewrites the day anyway; only the early update is lost.
        log.warn({ err, userId }, 'could not queue a highlights refresh');
      }
    },

    /**
     * The user's run has started: activities from now on need a run of their own (this one may have read
     * the activities already).
     */
    started(userId: string): void {
      waiting.delete(userId);
    },
  };
}
export type HighlightsRefresh = ReturnType<typeof createHighlightsRefresh>;
