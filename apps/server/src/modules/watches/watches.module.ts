import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { ActivitiesApi } from '../activities/activities.module.js';
import type { ChatApi } from '../chat/chat.module.js';
import type { NotificationsApi } from '../notifications/notifications.module.js';
import { createWatchesRepository } from './watches.repository.js';
import { createWatchesService } from './watches.service.js';

export { MAX_ACTIVE_WATCHES, TooManyWatchesError, type WatchInput } from './watches.service.js';
export type { WatchRow } from './watches.repository.js';

/** Every ten minutes, off the top of the hour: running watches whose time is up are ended. */
export const EXPIRE_WATCHES_CRON = '3-59/10 * * * *';

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
    workers: (jobs) =>
      jobs.work('watches.expire', { concurrency: 1 }, async ({ at }) => {
        await watches.expire(at ? new Date(at) : undefined);
      }),
    schedule: (jobs) => jobs.schedule('watches.expire', EXPIRE_WATCHES_CRON, {}),
  } satisfies AppModule<unknown>;
}
export type WatchesApi = ReturnType<typeof createWatchesModule>['api'];
