import { endpoints } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { route, type AccessGuards } from '../../platform/http/route.js';
import type { SignupService } from './signup.service.js';

/** The operator's calls behind `npm run admin`. */
export function registerAdminRoutes(
  app: FastifyInstance,
  deps: { signup: SignupService; guards: AccessGuards },
): void {
  const { signup, guards } = deps;

  route(app, guards, endpoints.adminSetSignup, async (req) => {
    await signup.setEnabled(req.body.enabled);
    return { success: true as const, data: { enabled: await signup.isEnabled() } };
  });

  route(app, guards, endpoints.adminListWaitlist, async () => ({
    success: true as const,
    data: await signup.listWaitlist(),
  }));
}
