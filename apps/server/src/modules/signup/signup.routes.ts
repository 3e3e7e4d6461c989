import { endpoints } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { route, type AccessGuards } from '../../platform/http/route.js';
import type { SignupService } from './signup.service.js';

export function registerSignupRoutes(
  app: FastifyInstance,
  deps: { signup: SignupService; guards: AccessGuards; rateLimit: { max: number; timeWindow: number } },
): void {
  const { signup, guards } = deps;

  route(app, guards, endpoints.signupStatus, async () => ({
    success: true as const,
    data: { enabled: await signup.isEnabled() },
  }));

  route(
    app,
    guards,
    endpoints.joinWaitlist,
    async (req) => {
      await signup.joinWaitlist(req.body.email);
      return { success: true as const };
    },
    { rateLimit: deps.rateLimit },
  );
}
