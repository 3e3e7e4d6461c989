import { endpoints } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import type { UsersApi } from '../users/users.module.js';
import type { CorrectionsService } from './corrections.service.js';

/** Recognition on an activity and the corrections that teach it. */
export function registerCorrectionRoutes(
  app: FastifyInstance,
  deps: { corrections: CorrectionsService; users: Pick<UsersApi, 'getProfile'>; guards: AccessGuards },
): void {
  const { corrections, users, guards } = deps;
  const userIdOf = async (subject: string) => (await users.getProfile(subject)).user_uuid;

  route(app, guards, endpoints.getActivityRecognition, async (req) => ({
    success: true as const,
    data: await corrections.recognition(await userIdOf(callerOf(req).subject), req.params.activity_uuid),
  }));

  route(app, guards, endpoints.correctActivityRecognition, async (req) => ({
    success: true as const,
    data: await corrections.correct(
      await userIdOf(callerOf(req).subject),
      req.params.activity_uuid,
      req.body.memory_uuid,
      req.body.is_correct,
    ),
  }));
}
