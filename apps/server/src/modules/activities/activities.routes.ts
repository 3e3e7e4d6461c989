import { endpoints } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import type { ActivitiesService } from './activities.service.js';

const ok = <T>(data: T) => ({ success: true as const, data });

/** Activities (camera events): thin handlers, rules in ActivitiesService. */
export function registerActivityRoutes(
  app: FastifyInstance,
  deps: { activities: ActivitiesService; guards: AccessGuards },
): void {
  const { activities, guards } = deps;

  route(app, guards, endpoints.listActivities, async (req) => ({
    success: true as const,
    ...(await activities.list(callerOf(req).subject, req.query)),
  }));

  route(app, guards, endpoints.getActivity, async (req) =>
    ok(await activities.get(callerOf(req).subject, req.params.activity_uuid)),
  );

  route(app, guards, endpoints.deleteCameraHistory, async (req) =>
    ok(await activities.deleteCameraHistory(callerOf(req).subject, req.params.name)),
  );
}
