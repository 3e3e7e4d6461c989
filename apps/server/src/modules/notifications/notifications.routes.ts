import { endpoints } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { route, type AccessGuards } from '../../platform/http/route.js';
import type { NotificationsService } from './notifications.service.js';

/** The Web Push key a browser subscribes with; public, like any application server key. */
export function registerNotificationRoutes(
  app: FastifyInstance,
  deps: { notifications: NotificationsService; guards: AccessGuards },
): void {
  route(app, deps.guards, endpoints.getVapidPublicKey, async () => ({
    success: true as const,
    data: { public_key: deps.notifications.webPushPublicKey },
  }));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Push and SMS/MMS delivery, for in-process callers (the alert pipeline, chat answers, tests). */
    notifications: NotificationsService;
  }
}
