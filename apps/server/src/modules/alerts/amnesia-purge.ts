import type { Logger } from '../../platform/logger.js';
import type { AlertsRepository } from './alerts.repository.js';
import type { AlertsService } from './alerts.service.js';

export interface EphemeralPurgeDeps {
  repo: Pick<AlertsRepository, 'dueEphemeral' | 'alertHasOtherActivities'>;
  chat: { deleteAgentMessage(userId: string, messageId: string): Promise<void> };
  alerts: Pick<AlertsService, 'refresh'>;
  /** Deletes an activity with its media (the activities module's own deletion). */
  deleteActivity(userId: string, activityId: string): Promise<void>;
  log: Logger;
  now?: () => Date;
}

const BATCH = 100;

/**
 * Amnesia mode keeps nothing new: an activity recorded while it was on lives only for its alert, and this
 * hourly job removes it, its media and its alert message (or, when the message also shows activities kept
 * normally, just its part of that message).
 */
export function createEphemeralPurge(deps: EphemeralPurgeDeps) {
  const { repo, log } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    /** Purges every activity whose time is up; answers how many. */
    async purgeDue(): Promise<number> {
      let purged = 0;
      for (;;) {
        const due = await repo.dueEphemeral(now(), BATCH);
        if (due.length === 0) break;
        const dueIds = due.map((a) => a.id);
        const messages = new Map<string, string>();
        for (const a of due) if (a.alertMessageId) messages.set(a.alertMessageId, a.userId);
        for (const [messageId, userId] of messages)
          if (!(await repo.alertHasOtherActivities(userId, messageId, dueIds)))
            await deps.chat.deleteAgentMessage(userId, messageId);
        for (const a of due) await deps.deleteActivity(a.userId, a.id);
        for (const [messageId, userId] of messages) await deps.alerts.refresh(userId, messageId);
        purged += due.length;
        if (due.length < BATCH) break;
      }
      if (purged > 0) log.info({ purged }, 'amnesia-mode activities purged');
      return purged;
    },
  };
}
export type EphemeralPurge = ReturnType<typeof createEphemeralPurge>;
