import { STRIPE_WEBHOOK_PATH } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { BillingSignatureError, type BillingProvider } from '../../adapters/billing/billing.js';
import type { Logger } from '../../platform/logger.js';
import { billingErrors } from './billing.errors.js';
import type { BillingRepository } from './billing.repository.js';
import type { BillingService } from './billing.service.js';

/**
 * `POST /api/stripe/webhook`: the raw body (its own content-type parser, in this route's scope only) is
 * verified with Stripe's signature header; each event id is claimed once (`stripe_events`), so a second
 * delivery answers 200 and changes nothing. A failure to apply gives the claim back and answers 500, so
 * Stripe delivers again.
 */
export async function registerStripeWebhook(
  app: FastifyInstance,
  deps: {
    provider: BillingProvider | undefined;
    billing: BillingService;
    repo: BillingRepository;
    log: Logger;
  },
): Promise<void> {
  const { provider, billing, repo, log } = deps;
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => {
      done(null, body);
    });
    scope.route({
      method: 'POST',
      url: STRIPE_WEBHOOK_PATH,
      schema: { hide: true },
      handler: async (req, reply) => {
        if (!provider) throw billingErrors.notConfigured();
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const header = req.headers['stripe-signature'];
        let event;
        try {
          event = provider.verifyWebhook(raw, typeof header === 'string' ? header : undefined);
        } catch (err) {
          if (err instanceof BillingSignatureError) throw billingErrors.signatureInvalid();
          throw err;
        }
        if (!(await repo.claimEvent(event.id, event.type))) {
          log.debug({ event: event.id, type: event.type }, 'stripe: event applied before; ignored');
          return reply.status(200).send({ received: true, duplicate: true });
        }
        try {
          await billing.applyEvent(event);
        } catch (err) {
          await repo.releaseEvent(event.id);
          throw err;
        }
        return reply.status(200).send({ received: true });
      },
    });
  });
}
