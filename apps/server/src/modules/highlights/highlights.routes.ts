import { endpoints } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import type { HighlightsService } from './highlights.service.js';

/** GET /api/users/activity-summaries?date=YYYY-MM-DD: an empty list when the day has none. */
export function registerHighlightsRoutes(
  app: FastifyInstance,
  deps: { highlights: HighlightsService; guards: AccessGuards },
): void {
  route(app, deps.guards, endpoints.getActivitySummaries, async (req) => ({
    success: true as const,
    data: await deps.highlights.summariesFor(callerOf(req).subject, req.query.date),
  }));
}
