import { defineEndpoints } from './endpoint.js';
import { okEnvelope } from './envelope.js';
import { notificationChannelsSchema, vapidPublicKeySchema } from './notifications.js';
import { apiRoutes } from './routes.runtime.js';

/** Notification delivery: what a browser needs to subscribe to Web Push. */
export const notificationsEndpoints = defineEndpoints({
  getVapidPublicKey: {
    ...apiRoutes.getVapidPublicKey,
    summary:
      "The Web Push application server key (VAPID) a browser subscribes with; send the subscription's JSON as a `web` push token",
    tags: ['notifications'],
    response: okEnvelope(vapidPublicKeySchema),
  },
  getNotificationChannels: {
    ...apiRoutes.getNotificationChannels,
    summary:
      'The channels this server can deliver alerts by (an SMS provider configured, push to phones configured)',
    tags: ['notifications'],
    response: okEnvelope(notificationChannelsSchema),
  },
});
