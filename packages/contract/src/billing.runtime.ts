/** Billing facts without zod, for the browser bundle and the server alike. */

/** Answered (503 `billing.not_configured`) by every payment call when no payment provider is configured. */
export const BILLING_NOT_CONFIGURED_MESSAGE = 'Payments are not configured on this server';

/** The payment provider's webhook: raw JSON body, verified by its signature header (docs/billing.md). */
export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';

/** Where hosted Checkout returns to; the provider fills in `{CHECKOUT_SESSION_ID}`. */
export const SUBSCRIPTION_SUCCESS_PATH = '/subscription/success';
export const SUBSCRIPTION_CANCELED_PATH = '/subscription/canceled';
export const CHECKOUT_SESSION_QUERY_PARAM = 'session_id';
