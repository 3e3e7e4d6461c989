/**
 * The payment provider port (docs/billing.md): one implementation per file beside this one (`stripe.ts`).
 * Every amount is in the currency's minor unit and every time is the provider's (Unix seconds), never our
 * clock's. A failed provider call throws a `BillingProviderError` (its type and code only, never card data).
 */

export interface ProviderPrice {
  id: string;
  amount: number;
  currency: string;
  interval: 'month' | 'year';
}

export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** active, past_due, canceled, incomplete, incomplete_expired, unpaid, trialing, paused */
  status: string;
  /** The price of its (single) item, and the item's id (a plan change replaces the item's price). */
  priceId: string | null;
  itemId: string | null;
  currentPeriodStart: number | null;
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: number | null;
  endedAt: number | null;
  latestInvoiceId: string | null;
}

export interface ProviderCheckoutSession {
  id: string;
  url: string | null;
  customerId: string | null;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  subscriptionId: string | null;
  /** The user id we created it for (`client_reference_id`). */
  clientReferenceId: string | null;
}

export interface ProviderPaymentIntent {
  id: string;
  status: string;
  customerId: string | null;
  amount: number;
  currency: string;
}

/** One line of an invoice: a price for a period, or a proration (credit for unused time, or its charge). */
export interface ProviderInvoiceLine {
  /** After discounts; a proration credit is negative. */
  amount: number;
  priceId: string | null;
  proration: boolean;
  periodStart: number;
  periodEnd: number;
}

/** A paid invoice of a subscription: its lines and the payments (payment intents) that paid it. */
export interface ProviderPaidInvoice {
  id: string;
  currency: string;
  amountPaid: number;
  created: number;
  lines: ProviderInvoiceLine[];
  payments: { paymentIntentId: string; amountPaid: number }[];
}

export interface ProviderRefund {
  id: string;
  amount: number;
  currency: string;
  /** pending, requires_action, succeeded, failed, canceled */
  status: string;
  /** The subscription whose cancellation made it (our metadata), if any. */
  subscriptionId: string | null;
}

/** The customer's balance: negative is credit that pays their next invoices. */
export interface ProviderCustomerBalance {
  balance: number;
  currency: string | null;
}

/** A verified webhook event, reduced to what billing applies. */
export interface ProviderEvent {
  id: string;
  type: string;
  customerId: string | null;
  subscriptionId: string | null;
  /** `charge.refunded`: the refunded charge's payment intent and its refunded total. */
  refund: { paymentIntentId: string | null; amount: number; currency: string } | null;
}

export interface BillingProvider {
  readonly publishableKey: string | undefined;
  /** The configured monthly and yearly price ids. */
  readonly priceIds: { monthly: string; yearly: string };
  retrievePrice(priceId: string): Promise<ProviderPrice>;
  createCustomer(input: { userId: string; email: string }): Promise<string>;
  createCheckoutSession(input: {
    customerId: string;
    userId: string;
    priceId: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<ProviderCheckoutSession>;
  retrieveCheckoutSession(sessionId: string): Promise<ProviderCheckoutSession>;
  retrieveSubscription(subscriptionId: string): Promise<ProviderSubscription>;
  /** Subscriptions of the customer still alive (not canceled or incomplete_expired), newest first. */
  listSubscriptions(customerId: string): Promise<ProviderSubscription[]>;
  /** A subscription waiting for its first payment, and that payment's intent (`default_incomplete`). */
  createIncompleteSubscription(input: { customerId: string; userId: string; priceId: string }): Promise<{
    subscription: ProviderSubscription;
    paymentIntent: ProviderPaymentIntent & { clientSecret: string };
  }>;
  retrievePaymentIntent(paymentIntentId: string): Promise<ProviderPaymentIntent>;
  /** The subscription whose first invoice this payment intent paid, if any. */
  subscriptionOfPaymentIntent(paymentIntentId: string): Promise<string | null>;
  /** Moves the subscription to another price, Stripe prorating and invoicing the difference at once. */
  changePrice(subscription: ProviderSubscription, priceId: string): Promise<ProviderSubscription>;
  cancelNow(subscriptionId: string): Promise<ProviderSubscription>;
  /** The subscription's paid invoices, newest first. */
  paidInvoices(subscriptionId: string): Promise<ProviderPaidInvoice[]>;
  /** Refunds made on a payment intent, newest first. */
  listRefunds(paymentIntentId: string): Promise<ProviderRefund[]>;
  /** Refunds part of a payment, marked as made for the cancellation of `subscriptionId`. */
  refund(input: {
    paymentIntentId: string;
    amount: number;
    subscriptionId: string;
    idempotencyKey: string;
  }): Promise<ProviderRefund>;
  customerBalance(customerId: string): Promise<ProviderCustomerBalance>;
  /** Adds `amount` to the customer's balance (positive takes credit away) with a balance transaction. */
  adjustCustomerBalance(input: {
    customerId: string;
    amount: number;
    currency: string;
    description: string;
    idempotencyKey: string;
  }): Promise<void>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** Verifies the signature header of a raw webhook body; throws `BillingSignatureError` when it is wrong. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
}

/** A provider call failed; `type`/`code` are the provider's, safe to log. */
export class BillingProviderError extends Error {
  constructor(
    readonly type: string,
    readonly code: string | undefined,
    readonly statusCode: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(`payment provider failed: ${type}${code ? ` (${code})` : ''}`, options);
    this.name = 'BillingProviderError';
  }
}

export class BillingSignatureError extends Error {
  constructor() {
    super('webhook signature invalid');
    this.name = 'BillingSignatureError';
  }
}
