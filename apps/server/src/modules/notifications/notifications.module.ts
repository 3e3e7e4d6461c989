import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { UsersApi } from '../users/users.module.js';
import { createNotificationsFromConfig } from './notifications.from-config.js';
import { createNotificationsRepository } from './notifications.repository.js';
import { registerNotificationRoutes } from './notifications.routes.js';
import type { NotificationsService } from './notifications.service.js';
import { createPushTokensService } from './push-tokens.service.js';

export interface NotificationsNeeds {
  users: Pick<UsersApi, 'requireIdBySubject' | 'findIdBySubject'>;
  /** Replaces the configured delivery (tests of its callers). */
  given?: NotificationsService;
}

/** Push (Web Push, FCM, APNs) and SMS/MMS to the user's devices, and the devices' push tokens. */
export function createNotificationsModule(context: ModuleContext, needs: NotificationsNeeds) {
  const { db } = context.database;
  const notifications =
    needs.given ?? createNotificationsFromConfig(context.config, { db, log: context.log });
  const pushTokens = createPushTokensService({
    repo: createNotificationsRepository(db),
    requireUserId: needs.users.requireIdBySubject,
    findUserId: needs.users.findIdBySubject,
  });
  return {
    api: notifications,
    routes: (app, { guards }) => registerNotificationRoutes(app, { notifications, pushTokens, guards }),
    close: () => notifications.close(),
  } satisfies AppModule<unknown>;
}
export type NotificationsApi = ReturnType<typeof createNotificationsModule>['api'];
