import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { UsersApi } from '../users/users.module.js';
import { createNotificationsFromConfig } from './notifications.from-config.js';
import { registerNotificationsWorkers } from './notifications.jobs.js';
import { createNotificationsRepository } from './notifications.repository.js';
import { registerNotificationRoutes } from './notifications.routes.js';
import { retryJobId, type NotificationsService } from './notifications.service.js';
import { createPushTokensService } from './push-tokens.service.js';

export interface NotificationsNeeds {
  users: Pick<UsersApi, 'requireIdBySubject' | 'findIdBySubject'>;
  /**
   * Whether an alert is still wanted when a failed push or text of it is tried again: its camera not muted
   * or private, the user not in privacy mode, the activity not deleted (the alerts module decides).
   */
  alertWanted?: (userId: string, activityId: string) => Promise<boolean>;
  /** Replaces the configured delivery (tests of its callers). */
  given?: NotificationsService;
}

/** Push (Web Push, FCM, APNs) and SMS/MMS to the user's devices, and the devices' push tokens. */
export function createNotificationsModule(context: ModuleContext, needs: NotificationsNeeds) {
  const { db } = context.database;
  const { jobs, config, log } = context;
  const notifications =
    needs.given ??
    createNotificationsFromConfig(config, {
      db,
      log,
      // A failed channel of an alert is tried again by a job, first after NOTIFY_RETRY_DELAY_SECONDS; its id
      // (alert, channel, device or number) makes a second queueing of the same retry a no-op.
      retry: (job) =>
        jobs.send('notifications.retry-channel', job, {
          id: retryJobId(job),
          startAfterSeconds: config.NOTIFY_RETRY_DELAY_SECONDS,
        }),
      alertWanted: needs.alertWanted,
    });
  const pushTokens = createPushTokensService({
    repo: createNotificationsRepository(db),
    requireUserId: needs.users.requireIdBySubject,
    findUserId: needs.users.findIdBySubject,
  });
  return {
    api: notifications,
    routes: (app, { guards }) => registerNotificationRoutes(app, { notifications, pushTokens, guards }),
    workers: (runner) => registerNotificationsWorkers(runner, { notifications, log }),
    close: () => notifications.close(),
  } satisfies AppModule<unknown>;
}
export type NotificationsApi = ReturnType<typeof createNotificationsModule>['api'];
