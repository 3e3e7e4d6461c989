import Stripe from 'stripe';
import {
  BillingProviderError,
  BillingSignatureError,
  type BillingProvider,
  type ProviderCheckoutSession,
  type ProviderEvent,
  type ProviderInvoiceLine,
  type ProviderPaidInvoice,
  type ProviderPaymentIntent,
  type ProviderRefund,
  type ProviderSubscription,
} from './billing.js';

export interface StripeBillingOptions {
  secretKey: string;
  publishableKey: string | undefined;
  webhookSecret: string | undefined;
  priceIds: { monthly: string; yearly: string };
  /** `STRIPE_API_BASE`, e.g. https://api.stripe.com or http://127.0.0.1:12111 (a local fake). */
  apiBase: string;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** A Stripe error, reduced to what may be logged: its type and code (never the card's data). */
function providerError(err: unknown): BillingProviderError {
  if (err instanceof Stripe.errors.StripeError)
    return new BillingProviderError(err.type, err.code, err.statusCode, { cause: err });
  return new BillingProviderError(err instanceof Error ? err.name : 'unknown', undefined, undefined, {
    cause: err,
  });
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw providerError(err);
  }
}

function toSubscription(s: Stripe.Subscription): ProviderSubscription {
  // Since API version 2025-03-31 the current period is the item's, not the subscription's.
  const item = s.items.data[0];
  return {
    id: s.id,
    customerId: idOf(s.customer) ?? '',
    status: s.status,
    priceId: item?.price.id ?? null,
    itemId: item?.id ?? null,
    currentPeriodStart: item?.current_period_start ?? null,
    currentPeriodEnd: item?.current_period_end ?? null,
    cancelAtPeriodEnd: s.cancel_at_period_end,
    canceledAt: s.canceled_at,
    endedAt: s.ended_at,
    latestInvoiceId: idOf(s.latest_invoice),
  };
}

function toSession(s: Stripe.Checkout.Session): ProviderCheckoutSession {
  return {
    id: s.id,
    url: s.url,
    customerId: idOf(s.customer),
    status: s.status === 'complete' ? 'complete' : s.status === 'expired' ? 'expired' : 'open',
    paymentStatus:
      s.payment_status === 'paid'
        ? 'paid'
        : s.payment_status === 'no_payment_required'
          ? 'no_payment_required'
          : 'unpaid',
    subscriptionId: idOf(s.subscription),
    clientReferenceId: s.client_reference_id,
  };
}

/** The refund metadata naming the subscription whose cancellation made it. */
const REFUND_SUBSCRIPTION_KEY = 'homesitter_subscription';

function toPaidInvoice(invoice: Stripe.Invoice): ProviderPaidInvoice {
  const lines: ProviderInvoiceLine[] = invoice.lines.data.map((line) => {
    const price = line.pricing?.price_details?.price;
    const parent = line.parent?.subscription_item_details ?? line.parent?.invoice_item_details;
    const discounts = (line.discount_amounts ?? []).reduce((sum, d) => sum + d.amount, 0);
    return {
      amount: line.amount - discounts,
      priceId: idOf(price),
      proration: parent?.proration ?? false,
      periodStart: line.period.start,
      periodEnd: line.period.end,
    };
  });
  const payments = (invoice.payments?.data ?? []).flatMap((p) => {
    const paymentIntentId = p.payment.type === 'payment_intent' ? idOf(p.payment.payment_intent) : null;
    return p.status === 'paid' && paymentIntentId && p.amount_paid
      ? [{ paymentIntentId, amountPaid: p.amount_paid }]
      : [];
  });
  return {
    id: invoice.id,
    currency: invoice.currency,
    amountPaid: invoice.amount_paid,
    created: invoice.created,
    lines,
    payments,
  };
}

function toRefund(r: Stripe.Refund): ProviderRefund {
  return {
    id: r.id,
    amount: r.amount,
    currency: r.currency,
    status: r.status ?? 'pending',
    subscriptionId: r.metadata?.[REFUND_SUBSCRIPTION_KEY] ?? null,
  };
}

function toPaymentIntent(p: Stripe.PaymentIntent): ProviderPaymentIntent {
  return { id: p.id, status: p.status, customerId: idOf(p.customer), amount: p.amount, currency: p.currency };
}

/** Billing through Stripe's official SDK, pinned to the API version of the SDK (stripe@23: 2026-10-28). */
export function createStripeBilling(options: StripeBillingOptions): BillingProvider {
  const base = new URL(options.apiBase);
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  const stripe = new Stripe(options.secretKey, {
    host: base.hostname,
    port: base.port || (protocol === 'http' ? 80 : 443),
    protocol,
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
  });

  return {
    publishableKey: options.publishableKey,
    priceIds: options.priceIds,

    retrievePrice: (priceId) =>
      call(async () => {
        const p = await stripe.prices.retrieve(priceId);
        return {
          id: p.id,
          amount: p.unit_amount ?? 0,
          currency: p.currency,
          interval: p.recurring?.interval === 'year' ? 'year' : 'month',
        };
      }),

    createCustomer: ({ userId, email }) =>
      call(async () => {
        // One customer per user even when two first calls race: Stripe answers both with the first's result.
        const c = await stripe.customers.create(
          { email, metadata: { user_id: userId } },
          { idempotencyKey: `homesitter-customer-${userId}` },
        );
        return c.id;
      }),

    createCheckoutSession: (input) =>
      call(async () =>
        toSession(
          await stripe.checkout.sessions.create({
            mode: 'subscription',
            customer: input.customerId,
            client_reference_id: input.userId,
            line_items: [{ price: input.priceId, quantity: 1 }],
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            subscription_data: { metadata: { user_id: input.userId } },
          }),
        ),
      ),

    retrieveCheckoutSession: (sessionId) =>
      call(async () => toSession(await stripe.checkout.sessions.retrieve(sessionId))),

    retrieveSubscription: (id) => call(async () => toSubscription(await stripe.subscriptions.retrieve(id))),

    listSubscriptions: (customerId) =>
      call(async () => {
        const list = await stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 20 });
        return list.data
          .filter((s) => s.status !== 'canceled' && s.status !== 'incomplete_expired')
          .map(toSubscription);
      }),

    createIncompleteSubscription: (input) =>
      call(async () => {
        const s = await stripe.subscriptions.create({
          customer: input.customerId,
          items: [{ price: input.priceId }],
          payment_behavior: 'default_incomplete',
          payment_settings: { save_default_payment_method: 'on_subscription' },
          metadata: { user_id: input.userId },
          expand: ['latest_invoice.confirmation_secret'],
        });
        const invoice = typeof s.latest_invoice === 'object' ? s.latest_invoice : null;
        const clientSecret = invoice?.confirmation_secret?.client_secret;
        if (!invoice || !clientSecret)
          throw new BillingProviderError('invalid_response', 'no_confirmation_secret', undefined);
        // The confirmation secret is the payment intent's client secret: `pi_…_secret_…`.
        const paymentIntentId = clientSecret.split('_secret_')[0] ?? '';
        return {
          subscription: toSubscription(s),
          paymentIntent: {
            id: paymentIntentId,
            clientSecret,
            status: 'requires_payment_method',
            customerId: input.customerId,
            amount: invoice.amount_due,
            currency: invoice.currency,
          },
        };
      }),

    retrievePaymentIntent: (id) =>
      call(async () => toPaymentIntent(await stripe.paymentIntents.retrieve(id))),

    subscriptionOfPaymentIntent: (paymentIntentId) =>
      call(async () => {
        const payments = await stripe.invoicePayments.list({
          payment: { type: 'payment_intent', payment_intent: paymentIntentId },
          expand: ['data.invoice'],
          limit: 1,
        });
        const invoice = payments.data[0]?.invoice;
        if (!invoice || typeof invoice === 'string' || invoice.deleted) return null;
        return idOf(invoice.parent?.subscription_details?.subscription);
      }),

    changePrice: (subscription, priceId) =>
      call(async () => {
        if (!subscription.itemId) throw new BillingProviderError('invalid_request_error', 'no_item', 400);
        // `always_invoice`: the prorated difference is invoiced (and charged, or credited) at once.
        const s = await stripe.subscriptions.update(subscription.id, {
          items: [{ id: subscription.itemId, price: priceId }],
          proration_behavior: 'always_invoice',
        });
        return toSubscription(s);
      }),

    cancelNow: (id) => call(async () => toSubscription(await stripe.subscriptions.cancel(id))),

    paidInvoices: (subscriptionId) =>
      call(async () => {
        const found: ProviderPaidInvoice[] = [];
        // Newest first, every page; the lines come with each invoice, the payments when expanded.
        for await (const invoice of stripe.invoices.list({
          subscription: subscriptionId,
          status: 'paid',
          limit: 100,
          expand: ['data.payments'],
        })) {
          found.push(toPaidInvoice(invoice));
        }
        return found;
      }),

    listRefunds: (paymentIntentId) =>
      call(async () => {
        const found: ProviderRefund[] = [];
        for await (const r of stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 }))
          found.push(toRefund(r));
        return found;
      }),

    refund: ({ paymentIntentId, amount, subscriptionId, idempotencyKey }) =>
      call(async () =>
        toRefund(
          await stripe.refunds.create(
            {
              payment_intent: paymentIntentId,
              amount,
              reason: 'requested_by_customer',
              metadata: { [REFUND_SUBSCRIPTION_KEY]: subscriptionId },
            },
            { idempotencyKey },
          ),
        ),
      ),

    customerBalance: (customerId) =>
      call(async () => {
        const c = await stripe.customers.retrieve(customerId);
        if (c.deleted) return { balance: 0, currency: null };
        return { balance: c.balance, currency: c.currency ?? null };
      }),

    adjustCustomerBalance: ({ customerId, amount, currency, description, idempotencyKey }) =>
      call(async () => {
        await stripe.customers.createBalanceTransaction(
          customerId,
          { amount, currency, description },
          { idempotencyKey },
        );
      }),

    createPortalSession: ({ customerId, returnUrl }) =>
      call(async () => {
        const s = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
        return { url: s.url };
      }),

    verifyWebhook(rawBody, signature) {
      if (!options.webhookSecret || !signature) throw new BillingSignatureError();
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch {
        throw new BillingSignatureError();
      }
      return toEvent(event);
    },
  };
}

function toEvent(event: Stripe.Event): ProviderEvent {
  const base = { id: event.id, type: event.type, customerId: null, subscriptionId: null, refund: null };
  switch (event.type) {
    case 'checkout.session.completed': {
      const s = event.data.object;
      return { ...base, customerId: idOf(s.customer), subscriptionId: idOf(s.subscription) };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const s = event.data.object;
      return { ...base, customerId: idOf(s.customer), subscriptionId: s.id };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const i = event.data.object;
      return {
        ...base,
        customerId: idOf(i.customer),
        subscriptionId: idOf(i.parent?.subscription_details?.subscription),
      };
    }
    case 'charge.refunded': {
      const c = event.data.object;
      return {
        ...base,
        customerId: idOf(c.customer),
        refund: {
          paymentIntentId: idOf(c.payment_intent),
          amount: c.amount_refunded,
          currency: c.currency,
        },
      };
    }
    default:
      return base;
  }
}
