import { endpoints } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import type { NotificationsService } from './notifications.service.js';
import type { PushTokensService } from './push-tokens.service.js';

const ok = <T>(data: T) => ({ success: true as const, data });

/** The Web Push key a browser subscribes with (public, like any application server key), and device tokens. */
export function registerNotificationRoutes(
  app: FastifyInstance,
  deps: { notifications: NotificationsService; pushTokens: PushTokensService; guards: AccessGuards },
): void {
  const { pushTokens, guards } = deps;

  route(app, guards, endpoints.getVapidPublicKey, async () =>
    ok({ public_key: deps.notifications.webPushPublicKey }),
  );

  route(app, guards, endpoints.getNotificationChannels, async () => ok(deps.notifications.channels));

  route(app, guards, endpoints.registerPushToken, async (req) =>
    ok(await pushTokens.register(callerOf(req).subject, req.body)),
  );

  route(app, guards, endpoints.disablePushToken, async (req) =>
    ok(await pushTokens.disable(callerOf(req).subject, req.body.token, req.body.platform)),
  );

  route(app, guards, endpoints.verifyPushToken, async (req) =>
    ok(await pushTokens.verify(callerOf(req).subject, req.body.token, req.body.platform)),
  );
}
