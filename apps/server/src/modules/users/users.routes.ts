import { endpoints } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import type { UsersService } from './users.service.js';

const ok = <T>(data: T) => ({ success: true as const, data });

/** docs/product.md §7 "User": thin handlers, rules in UsersService. */
export function registerUserRoutes(
  app: FastifyInstance,
  deps: { users: UsersService; guards: AccessGuards },
): void {
  const { users, guards } = deps;

  route(app, guards, endpoints.createUser, async (req, reply) => {
    const { profile, created } = await users.createProfile(callerOf(req), req.body);
    reply.status(created ? 201 : 200);
    return ok(profile);
  });

  route(app, guards, endpoints.getProfile, async (req) => ok(await users.getProfile(callerOf(req).subject)));

  route(app, guards, endpoints.updateGlobalPrivacyMode, async (req) =>
    ok(await users.setGlobalPrivacyMode(callerOf(req).subject, req.body.is_global_privacy_mode_enabled)),
  );

  route(app, guards, endpoints.getUserSettings, async (req) =>
    ok(await users.getSettings(callerOf(req).subject)),
  );

  route(app, guards, endpoints.updateUserSettings, async (req) => {
    const settings = await users.setFacialRecognition(
      callerOf(req).subject,
      req.body.is_facial_recognition_enabled,
    );
    return {
      success: true as const,
      message: settings.is_facial_recognition_enabled
        ? 'Facial recognition enabled'
        : 'Facial recognition disabled',
      data: settings,
    };
  });

  route(app, guards, endpoints.deleteUser, async (req) => {
    await users.deleteAccount(callerOf(req));
    return { success: true as const };
  });

  route(app, guards, endpoints.updateNotifications, async (req) =>
    ok(await users.setNotificationsStatus(callerOf(req).subject, req.body.notifications_status)),
  );

  route(app, guards, endpoints.updateNotificationPreferences, async (req) =>
    ok(await users.setNotificationPreferences(callerOf(req).subject, req.body.notification_preferences)),
  );

  route(app, guards, endpoints.updatePersonalInfo, async (req) =>
    ok(await users.setPersonalInfo(callerOf(req).subject, req.body)),
  );

  route(app, guards, endpoints.updatePreferredLanguage, async (req) =>
    ok(await users.setPreferredLanguage(callerOf(req).subject, req.body.preferred_language)),
  );

  route(app, guards, endpoints.updateAmnesiaMode, async (req) =>
    ok(await users.setAmnesiaMode(callerOf(req).subject, req.body.is_amnesia_mode_enabled)),
  );
}
