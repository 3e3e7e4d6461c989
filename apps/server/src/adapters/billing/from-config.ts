import type { Config } from '../../platform/config.js';
import type { BillingProvider } from './billing.js';
import { createStripeBilling } from './stripe.js';

/**
 * Stripe when `STRIPE_SECRET_KEY` and both price ids are set; otherwise none (the payment calls answer 503).
 * A secret key without the price ids is a configuration mistake worth stopping for.
 */
export function billingFromConfig(config: Config): BillingProvider | undefined {
  if (!config.STRIPE_SECRET_KEY) return undefined;
  if (!config.STRIPE_PRICE_MONTHLY || !config.STRIPE_PRICE_YEARLY)
    throw new Error('STRIPE_SECRET_KEY is set: STRIPE_PRICE_MONTHLY and STRIPE_PRICE_YEARLY are needed too');
  return createStripeBilling({
    secretKey: config.STRIPE_SECRET_KEY,
    publishableKey: config.STRIPE_PUBLISHABLE_KEY,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET,
    priceIds: { monthly: config.STRIPE_PRICE_MONTHLY, yearly: config.STRIPE_PRICE_YEARLY },
    apiBase: config.STRIPE_API_BASE,
  });
}
