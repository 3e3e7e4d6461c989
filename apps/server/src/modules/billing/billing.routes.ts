import { BILLING_NOT_CONFIGURED_MESSAGE, endpoints, type ErrorEnvelope } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import type { BillingService } from './billing.service.js';
import { userErrors } from '../users/users.module.js';

const ok = <T>(data: T) => ({ success: true as const, data });

const NOT_CONFIGURED: ErrorEnvelope = {
  success: false,
  code: 'billing.not_configured',
  message: BILLING_NOT_CONFIGURED_MESSAGE,
};

/**
 * docs/product.md §7 "Payments": thin handlers, rules in BillingService. Without Stripe every call answers 503 with its
 * own text (after the caller's token is checked, before the body is read), which the error handler would
 * otherwise replace with the call's §8 failure text.
 */
export async function registerBillingRoutes(
  app: FastifyInstance,
  deps: { billing: BillingService; guards: AccessGuards },
): Promise<void> {
  const { billing, guards } = deps;
  await app.register(async (scope) => {
    scope.addHook('preValidation', async (_req, reply) => {
      if (!billing.configured) return reply.status(503).send(NOT_CONFIGURED);
    });

    route(scope, guards, endpoints.getPrices, async () => ({
      ...ok(await billing.prices()),
      in_app_payment: billing.inAppPayment,
    }));

    route(scope, guards, endpoints.createCheckoutSession, async (req) =>
      ok(await billing.createCheckoutSession(callerOf(req).subject, req.body.priceId)),
    );

    route(scope, guards, endpoints.getSubscription, async (req) =>
      ok(await billing.subscription(callerOf(req).subject)),
    );

    route(scope, guards, endpoints.verifyCheckoutSession, async (req) =>
      ok(await billing.verifySession(callerOf(req).subject, req.params.sessionId)),
    );

    route(scope, guards, endpoints.cancelSubscription, async (req) =>
      ok(await billing.cancel(callerOf(req).subject, req.body.preview === true)),
    );

    route(scope, guards, endpoints.createPaymentIntent, async (req) =>
      ok(await billing.createPaymentIntent(callerOf(req).subject, req.body.priceId)),
    );

    route(scope, guards, endpoints.activateSubscription, async (req) =>
      ok(await billing.activate(callerOf(req).subject, req.body)),
    );

    route(scope, guards, endpoints.updateSubscription, async (req) =>
      ok(await billing.changePlan(callerOf(req).subject, req.body)),
    );

    route(scope, guards, endpoints.createPortalSession, async (req) =>
      ok(await billing.portal(callerOf(req).subject)),
    );
  });
}

/** The operator's call behind `npm run admin -- free-events <email> <n>` (works with or without Stripe). */
export function registerBillingAdminRoutes(
  app: FastifyInstance,
  deps: { users: { setFreeEventsByEmail: SetFreeEvents }; guards: AccessGuards },
): void {
  route(app, deps.guards, endpoints.adminSetFreeEvents, async (req) => {
    const row = await deps.users.setFreeEventsByEmail(req.body.email, req.body.remaining_free_events);
    if (!row) throw userErrors.notFound();
    return ok({ email: row.email, remaining_free_events: row.remainingFreeEvents });
  });
}
type SetFreeEvents = (
  email: string,
  remaining: number,
) => Promise<{ email: string; remainingFreeEvents: number } | undefined>;
