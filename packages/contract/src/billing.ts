import { z } from 'zod';
import { singleLineText } from './common.js';

/**
 * Paid plans (docs/product.md §1, §3 "Subscription", §7 "Payments"). Amounts are in the currency's minor unit (cents)
 * and every amount and date comes from the payment provider, never from our clock.
 */

export const billingPlanSchema = z.enum(['monthly', 'yearly']);
export type BillingPlan = z.infer<typeof billingPlanSchema>;

/** One price a user may subscribe to (`GET /api/stripe/prices` answers `{ data: Price[] }`). */
export const priceSchema = z.object({
  id: z.string().describe("The provider's price id, e.g. price_1Q…"),
  plan: billingPlanSchema,
  amount: z.number().int().describe('Per interval, in the minor unit of the currency (cents)'),
  currency: z.string().describe('ISO 4217, lower case, e.g. usd, eur'),
  interval: z.enum(['month', 'year']),
});
export type Price = z.infer<typeof priceSchema>;

export const pricesResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(priceSchema),
  in_app_payment: z
    .boolean()
    .describe(
      'Whether the in-app payment dialog can be used (the server has a publishable key); otherwise only hosted Checkout',
    ),
});

export const moneySchema = z.object({
  amount: z.number().int().describe('Minor unit of the currency (cents)'),
  currency: z.string(),
});
export type Money = z.infer<typeof moneySchema>;

/**
 * The user's subscription (docs/product.md §4 "Subscription": none, active, ending on a date, cancelled with prorated
 * refund). "None" is a 404 `subscription.not_found`; active means `status === 'active'` (docs/product.md §9).
 */
export const subscriptionSchema = z.object({
  id: z.string(),
  status: z
    .string()
    .describe("The provider's status: active, past_due, canceled, incomplete, unpaid, trialing, …"),
  plan: billingPlanSchema.nullable().describe('Null when the price is none of ours any more'),
  price: priceSchema.nullable(),
  next_billing_date: z
    .string()
    .nullable()
    .describe('ISO time of the next renewal; null when it ends instead or has ended'),
  end_date: z
    .string()
    .nullable()
    .describe('ISO time it ends (cancelled at period end) or ended (cancelled now); null while it renews'),
  cancel_at_period_end: z.boolean(),
  canceled_at: z.string().nullable(),
  refund: moneySchema
    .nullable()
    .describe('What was refunded when it was cancelled (pro rata to the second), once the provider refunded'),
  remaining_free_events: z.number().int(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

const priceIdSchema = singleLineText('priceId', z.string().trim().min(1, 'priceId is required').max(255));
const planIdSchema = billingPlanSchema.describe('monthly or yearly; must be the plan of priceId');

export const createCheckoutSessionRequestSchema = z.strictObject({ priceId: priceIdSchema });
export type CreateCheckoutSessionRequest = z.input<typeof createCheckoutSessionRequestSchema>;

export const checkoutSessionSchema = z.object({
  sessionId: z.string(),
  url: z.string().describe("The provider's hosted Checkout page; the app navigates there"),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

export const checkoutSessionParamsSchema = z.strictObject({
  sessionId: singleLineText('sessionId', z.string().min(1).max(255)),
});

/** `GET verify-session/{sessionId}`: only the caller's own Checkout sessions are found. */
export const verifiedSessionSchema = z.object({
  sessionId: z.string(),
  status: z.enum(['open', 'complete', 'expired']),
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
  subscription: subscriptionSchema.nullable().describe('Once the session is complete'),
});
export type VerifiedSession = z.infer<typeof verifiedSessionSchema>;

/** `POST cancel-subscription`: `preview: true` answers the refund without cancelling. */
export const cancelSubscriptionRequestSchema = z.strictObject({
  preview: z.boolean().optional(),
});
export type CancelSubscriptionRequest = z.input<typeof cancelSubscriptionRequestSchema>;

export const cancelSubscriptionResponseSchema = z.object({
  canceled: z.boolean().describe('False for a preview'),
  refund: moneySchema.describe('The unused part of the paid period, pro rata to the second'),
  subscription: subscriptionSchema
    .nullable()
    .describe('The subscription after cancelling; null for a preview'),
});
export type CancelSubscriptionResponse = z.infer<typeof cancelSubscriptionResponseSchema>;

export const createPaymentIntentRequestSchema = z.strictObject({ priceId: priceIdSchema });
export type CreatePaymentIntentRequest = z.input<typeof createPaymentIntentRequestSchema>;

/** What the in-app payment dialog needs to confirm the first payment with the provider's card element. */
export const paymentIntentSchema = z.object({
  paymentIntentId: z.string(),
  clientSecret: z.string(),
  publishableKey: z.string().describe('The provider key the browser loads its card element with'),
  amount: z.number().int(),
  currency: z.string(),
});
export type PaymentIntent = z.infer<typeof paymentIntentSchema>;

export const activateSubscriptionRequestSchema = z.strictObject({
  paymentIntentId: singleLineText('paymentIntentId', z.string().trim().min(1).max(255)),
  priceId: priceIdSchema,
  planId: planIdSchema,
});
export type ActivateSubscriptionRequest = z.input<typeof activateSubscriptionRequestSchema>;

export const updateSubscriptionRequestSchema = z.strictObject({
  priceId: priceIdSchema,
  planId: planIdSchema,
});
export type UpdateSubscriptionRequest = z.input<typeof updateSubscriptionRequestSchema>;

export const portalSessionSchema = z.object({ url: z.string() });
export type PortalSession = z.infer<typeof portalSessionSchema>;

/** `POST /api/admin/free-events` (operator): a user's remaining free motion events, by email. */
export const adminSetFreeEventsRequestSchema = z.strictObject({
  email: z.string().trim().min(1).max(320),
  remaining_free_events: z.number().int().min(0).max(1_000_000),
});
export type AdminSetFreeEventsRequest = z.input<typeof adminSetFreeEventsRequestSchema>;

export const adminFreeEventsSchema = z.object({
  email: z.string(),
  remaining_free_events: z.number().int(),
});
