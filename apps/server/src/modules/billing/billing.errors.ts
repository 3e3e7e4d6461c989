import { BILLING_NOT_CONFIGURED_MESSAGE, MESSAGES } from '@homesitter/contract';
import { AppError } from '../../platform/errors.js';

export const billingErrors = {
  /** Rendered by the billing routes themselves, so the text stays this one (not the call's §8 failure text). */
  notConfigured: () => new AppError(503, 'billing.not_configured', BILLING_NOT_CONFIGURED_MESSAGE),
  /** The call's §8 failure text is shown; the provider's error type and code are only logged. */
  providerFailed: (cause?: unknown) =>
    new AppError(502, 'billing.provider_failed', 'The payment provider failed', { generic: true, cause }),
  invalidPlan: () => new AppError(400, 'billing.invalid_plan', MESSAGES.invalidPlan),
  alreadySubscribed: () =>
    new AppError(409, 'billing.already_subscribed', 'You already have an active subscription'),
  paymentIncomplete: (status: string) =>
    new AppError(402, 'billing.payment_incomplete', `The payment has not succeeded (${status})`),
  paymentNotFound: () => new AppError(404, 'billing.payment_incomplete', 'No such payment of yours'),
  sessionNotFound: () => new AppError(404, 'billing.session_not_found', 'No such checkout session of yours'),
  subscriptionNotFound: () => new AppError(404, 'subscription.not_found', 'You have no subscription'),
  signatureInvalid: () =>
    new AppError(400, 'billing.signature_invalid', 'The webhook signature is missing or invalid'),
  /** Stripe is set up without a publishable key: hosted Checkout works, the in-app dialog does not. */
  inAppPaymentUnavailable: () =>
    new AppError(
      503,
      'billing.in_app_payment_unavailable',
      'In-app payment is not available on this server; pay through Checkout instead',
    ),
};
