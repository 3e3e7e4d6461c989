import type { Stripe } from '@stripe/stripe-js';

const loaded = new Map<string, Promise<Stripe | null>>();

/**
 * Stripe.js for a publishable key, loaded from js.stripe.com only when the payment dialog first needs it
 * (the `pure` entry adds no script at import time). Tests replace this module with a fake.
 */
export function loadStripeJs(publishableKey: string): Promise<Stripe | null> {
  let pending = loaded.get(publishableKey);
  if (!pending) {
    pending = import('@stripe/stripe-js/pure').then(({ loadStripe }) => loadStripe(publishableKey));
    pending.catch(() => loaded.delete(publishableKey));
    loaded.set(publishableKey, pending);
  }
  return pending;
}
