import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { ActivitiesApi } from '../activities/activities.module.js';
import type { ChatApi } from '../chat/chat.module.js';
import type { NotificationsApi } from '../notifications/notifications.module.js';
import { registerWatchesWorkers, scheduleWatchesJobs } from './watches.jobs.js';
import { createWatchesRepository } from './watches.repository.js';
import { createWatchesService } from './watches.service.js';

export { MAX_ACTIVE_WATCHES, TooManyWatchesError, type WatchInput } from './watches.service.js';
export type { WatchRow } from './watches.repository.js';

export interface WatchesNeeds {
  chat: Pick<ChatApi, 'postAgentMessage'>;
  notifications: Pick<NotificationsApi, 'notify'>;
  activities: Pick<ActivitiesApi, 'render'>;
}

/**
 * Watch requests ("tell me when a car arrives in the driveway"): the assistant creates, lists and cancels
 * them; the analysis hands over every event whose analysis is final, and a matching watch alerts.
 */
export function createWatchesModule(context: ModuleContext, needs: WatchesNeeds) {
  const watches = createWatchesService({
    repo: createWatchesRepository(context.database.db),
    chat: needs.chat,
    notify: (userId, notification) => needs.notifications.notify(userId, notification),
    media: (row) => needs.activities.render(row),
    log: context.log,
  });
  return {
    api: watches,
    workers: (jobs) => registerWatchesWorkers(jobs, { watches }),
    schedule: scheduleWatchesJobs,
  } satisfies AppModule<unknown>;
}
export type WatchesApi = ReturnType<typeof createWatchesModule>['api'];
