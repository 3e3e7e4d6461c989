import {
  activateSubscriptionRequestSchema,
  cancelSubscriptionRequestSchema,
  cancelSubscriptionResponseSchema,
  checkoutSessionParamsSchema,
  checkoutSessionSchema,
  createCheckoutSessionRequestSchema,
  createPaymentIntentRequestSchema,
  paymentIntentSchema,
  portalSessionSchema,
  pricesResponseSchema,
  subscriptionSchema,
  updateSubscriptionRequestSchema,
  verifiedSessionSchema,
} from './billing.js';
import { defineEndpoints } from './endpoint.js';
import { okEnvelope } from './envelope.js';
import { MESSAGES } from './messages.js';
import { apiRoutes } from './routes.runtime.js';

/**
 * docs/product.md §7 "Payments". Without a payment provider configured every call answers 503
 * `billing.not_configured` ("Payments are not configured on this server") and the app shows a free plan
 * without limits.
 */
export const billingEndpoints = defineEndpoints({
  getPrices: {
    ...apiRoutes.getPrices,
    summary: 'The plans a user may subscribe to (monthly and yearly), with amounts from the provider',
    tags: ['payments'],
    response: pricesResponseSchema,
    failureMessage: MESSAGES.loadSubscriptionPricesFailed,
  },
  createCheckoutSession: {
    ...apiRoutes.createCheckoutSession,
    summary:
      "Start the provider's hosted Checkout for a price; it returns to /subscription/success or " +
      '/subscription/canceled with the session id',
    tags: ['payments'],
    body: createCheckoutSessionRequestSchema,
    response: okEnvelope(checkoutSessionSchema),
    failureMessage: MESSAGES.startCheckoutFailed,
  },
  getSubscription: {
    ...apiRoutes.getSubscription,
    summary: "The caller's latest subscription; 404 subscription.not_found when there is none",
    tags: ['payments'],
    response: okEnvelope(subscriptionSchema),
  },
  verifyCheckoutSession: {
    ...apiRoutes.verifyCheckoutSession,
    summary: "The state of one of the caller's own Checkout sessions (another user's is 404)",
    tags: ['payments'],
    params: checkoutSessionParamsSchema,
    response: okEnvelope(verifiedSessionSchema),
    failureMessage: MESSAGES.verifySubscriptionFailed,
  },
  cancelSubscription: {
    ...apiRoutes.cancelSubscription,
    summary:
      'End the subscription now and refund the unused part of the paid period, pro rata to the second; ' +
      '`preview: true` answers the refund without cancelling',
    tags: ['payments'],
    body: cancelSubscriptionRequestSchema,
    response: okEnvelope(cancelSubscriptionResponseSchema),
  },
  createPaymentIntent: {
    ...apiRoutes.createPaymentIntent,
    summary:
      "The in-app payment dialog's first payment: a subscription waiting for payment and its payment intent",
    tags: ['payments'],
    body: createPaymentIntentRequestSchema,
    response: okEnvelope(paymentIntentSchema),
    failureMessage: MESSAGES.createPaymentIntentFailed,
  },
  activateSubscription: {
    ...apiRoutes.activateSubscription,
    summary: 'After the dialog confirmed the payment: check it succeeded and make the subscription active',
    tags: ['payments'],
    body: activateSubscriptionRequestSchema,
    response: okEnvelope(subscriptionSchema),
    failureMessage: MESSAGES.activateSubscriptionFailed,
  },
  updateSubscription: {
    ...apiRoutes.updateSubscription,
    summary: "Switch between monthly and yearly with the provider's proration",
    tags: ['payments'],
    body: updateSubscriptionRequestSchema,
    response: okEnvelope(subscriptionSchema),
    failureMessage: MESSAGES.updateSubscriptionFailed,
  },
  createPortalSession: {
    ...apiRoutes.createPortalSession,
    summary: "A session of the provider's billing portal (cards, invoices); the app navigates to its url",
    tags: ['payments'],
    response: okEnvelope(portalSessionSchema),
    failureMessage: MESSAGES.openBillingPortalFailed,
  },
});
