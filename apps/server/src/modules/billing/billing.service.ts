import {
  CHECKOUT_SESSION_QUERY_PARAM,
  SUBSCRIPTION_CANCELED_PATH,
  SUBSCRIPTION_SUCCESS_PATH,
  type BillingPlan,
  type CancelSubscriptionResponse,
  type CheckoutSession,
  type Money,
  type PaymentIntent,
  type Price,
  type Subscription,
  type VerifiedSession,
} from '@homesitter/contract';
import {
  BillingProviderError,
  type BillingProvider,
  type ProviderEvent,
  type ProviderPaidInvoice,
  type ProviderRefund,
  type ProviderSubscription,
} from '../../adapters/billing/billing.js';
import { AppError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import type { BillingPatch, UserRow } from '../users/users.module.js';
import { billingErrors } from './billing.errors.js';

/** Where the billing portal returns to, and where the free-events notice links. */
export const CHANGE_PLAN_PATH = '/settings/account/change-plan';
const PRICES_TTL_MS = 5 * 60_000;
/** Statuses after which a subscription is over for good. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

export interface BillingUsers {
  requireRowBySubject(subject: string): Promise<UserRow>;
  findRowById(userId: string): Promise<UserRow | undefined>;
  findRowByStripeCustomer(customerId: string): Promise<UserRow | undefined>;
  updateBilling(userId: string, patch: BillingPatch): Promise<UserRow | undefined>;
  setStripeCustomerOnce(userId: string, customerId: string): Promise<string | undefined>;
}

export interface BillingServiceDeps {
  /** Undefined without `STRIPE_SECRET_KEY`: every payment call answers 503. */
  provider: BillingProvider | undefined;
  users: BillingUsers;
  /** A subscription became active: the user's held uploads are processed. */
  releaseHeld: (userId: string) => Promise<number>;
  publicUrl: string;
  log: Logger;
  /**
   * The refund preview's time (the real refund is computed at Stripe's cancellation time) and the prices
   * cache's.
   */
  now: () => Date;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const fromUnix = (s: number | null) => (s === null ? null : new Date(s * 1000));

/**
 * The unused part of a period, pro rata to the second: what the period is worth times the share of it
 * (Stripe's dates) left at `at` (Unix seconds), rounded down.
 */
export function proratedRefund(
  periodValue: number,
  period: { start: number | null; end: number | null },
  at: number,
): number {
  if (period.start === null || period.end === null || period.end <= period.start) return 0;
  const total = period.end - period.start;
  const unused = Math.min(Math.max(period.end - at, 0), total);
  return Math.max(0, Math.min(periodValue, Math.floor((periodValue * unused) / total)));
}

/** One payment of the subscription and what a cancellation refunds from it. */
export interface RefundPart {
  paymentIntentId: string;
  /** What this cancellation refunds from it in all. */
  planned: number;
  /** What this cancellation refunded from it already (an earlier attempt). */
  done: number;
}

/**
 * Spreads `owed` over the subscription's payments, newest first, each capped at what is still refundable on
 * it: what it paid less what was refunded for other reasons (refunds of this cancellation count as its own).
 */
export function spreadRefund(
  owed: number,
  payments: { paymentIntentId: string; amountPaid: number; refundedOther: number; refundedOurs: number }[],
): RefundPart[] {
  let left = Math.max(owed, 0);
  return payments.map((p) => {
    const planned = Math.min(left, Math.max(p.amountPaid - p.refundedOther, 0));
    left -= planned;
    return { paymentIntentId: p.paymentIntentId, planned, done: p.refundedOurs };
  });
}

/** Refunds that took (or may take) money back: all but failed and canceled ones. */
const liveRefund = (r: ProviderRefund) => r.status !== 'failed' && r.status !== 'canceled';

/** Stripe customers, Checkout, the payment dialog, plan changes, cancellation with refund, and webhooks. */
export function createBillingService(deps: BillingServiceDeps) {
  const { users, log } = deps;
  let prices: { at: number; list: Price[] } | undefined;

  function provider(): BillingProvider {
    if (!deps.provider) throw billingErrors.notConfigured();
    return deps.provider;
  }

  /** Runs provider calls; a provider failure becomes the 502 envelope, logged with type and code only. */
  async function guarded<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof BillingProviderError) {
        log.warn({ type: err.type, code: err.code, status: err.statusCode }, `stripe: ${what} failed`);
        throw billingErrors.providerFailed();
      }
      throw err;
    }
  }

  function planOf(priceId: string | null): BillingPlan | null {
    const ids = provider().priceIds;
    return priceId === ids.monthly ? 'monthly' : priceId === ids.yearly ? 'yearly' : null;
  }

  function requirePlan(priceId: string, planId?: BillingPlan): BillingPlan {
    const plan = planOf(priceId);
    if (!plan || (planId !== undefined && plan !== planId)) throw billingErrors.invalidPlan();
    return plan;
  }

  async function listPrices(): Promise<Price[]> {
    if (prices && Math.abs(deps.now().getTime() - prices.at) < PRICES_TTL_MS) return prices.list;
    const p = provider();
    const list = await Promise.all(
      (['monthly', 'yearly'] as const).map(async (plan) => {
        const price = await p.retrievePrice(p.priceIds[plan]);
        return {
          id: price.id,
          plan,
          amount: price.amount,
          currency: price.currency,
          interval: price.interval,
        };
      }),
    );
    prices = { at: deps.now().getTime(), list };
    return list;
  }

  async function view(row: UserRow): Promise<Subscription> {
    if (!row.stripeSubscriptionId || !row.stripeSubscriptionStatus)
      throw billingErrors.subscriptionNotFound();
    const plan = planOf(row.stripePriceId);
    const list = await listPrices();
    const status = row.stripeSubscriptionStatus;
    const ended = ENDED.has(status);
    return {
      id: row.stripeSubscriptionId,
      status,
      plan,
      price: list.find((p) => p.id === row.stripePriceId) ?? null,
      next_billing_date:
        !ended && !row.stripeCancelAtPeriodEnd && status !== 'incomplete'
          ? iso(row.stripeCurrentPeriodEnd)
          : null,
      end_date: ended
        ? iso(row.stripeEndedAt ?? row.stripeCanceledAt)
        : row.stripeCancelAtPeriodEnd
          ? iso(row.stripeCurrentPeriodEnd)
          : null,
      cancel_at_period_end: row.stripeCancelAtPeriodEnd,
      canceled_at: iso(row.stripeCanceledAt),
      refund:
        row.stripeRefundAmount !== null && row.stripeRefundCurrency !== null
          ? { amount: row.stripeRefundAmount, currency: row.stripeRefundCurrency }
          : null,
      remaining_free_events: row.remainingFreeEvents,
    };
  }

  /**
   * Stores what Stripe says of a subscription on the user's row. Another subscription never replaces an
   * active one unless it is active itself; becoming active clears the free-events notice and releases what
   * was held.
   */
  async function store(
    row: UserRow,
    sub: ProviderSubscription,
    extra: Partial<BillingPatch> = {},
  ): Promise<UserRow> {
    const other = row.stripeSubscriptionId !== null && row.stripeSubscriptionId !== sub.id;
    if (other && row.stripeSubscriptionStatus === 'active' && sub.status !== 'active') return row;
    const activated = sub.status === 'active' && (other || row.stripeSubscriptionStatus !== 'active');
    const patch: BillingPatch = {
      stripeCustomerId: sub.customerId || row.stripeCustomerId,
      stripeSubscriptionId: sub.id,
      stripeSubscriptionStatus: sub.status,
      stripePriceId: sub.priceId,
      stripeCurrentPeriodStart: fromUnix(sub.currentPeriodStart),
      stripeCurrentPeriodEnd: fromUnix(sub.currentPeriodEnd),
      stripeCancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      stripeCanceledAt: fromUnix(sub.canceledAt),
      stripeEndedAt: fromUnix(sub.endedAt),
      ...(other ? { stripeRefundAmount: null, stripeRefundCurrency: null } : {}),
      ...(activated ? { freeEventsNoticeAt: null } : {}),
      ...extra,
    };
    const updated = (await users.updateBilling(row.id, patch)) ?? row;
    if (activated) {
      const released = await deps.releaseHeld(row.id);
      log.info({ userId: row.id, released }, 'subscription active');
    }
    return updated;
  }

  async function ensureCustomer(row: UserRow): Promise<string> {
    if (row.stripeCustomerId) return row.stripeCustomerId;
    const created = await provider().createCustomer({ userId: row.id, email: row.email });
    return (await users.setStripeCustomerOnce(row.id, created)) ?? created;
  }

  async function refuseSecond(row: UserRow, customerId: string): Promise<void> {
    if (row.stripeSubscriptionStatus === 'active') throw billingErrors.alreadySubscribed();
    const alive = await provider().listSubscriptions(customerId);
    if (alive.some((s) => s.status === 'active' || s.status === 'trialing' || s.status === 'past_due'))
      throw billingErrors.alreadySubscribed();
  }

  /**
   * What the subscription's current period is worth: its line on the paid invoice that opened it (the price
   * for exactly the item's current period, not a proration), else the price's amount.
   */
  async function currentPeriodValue(sub: ProviderSubscription, invoices: ProviderPaidInvoice[]) {
    for (const invoice of invoices) {
      const line = invoice.lines.find(
        (l) =>
          !l.proration &&
          l.periodStart === sub.currentPeriodStart &&
          l.periodEnd === sub.currentPeriodEnd &&
          (l.priceId === null || l.priceId === sub.priceId),
      );
      if (line) return { value: line.amount, currency: invoice.currency };
    }
    if (!sub.priceId) return { value: 0, currency: invoices[0]?.currency ?? null };
    const price = await provider().retrievePrice(sub.priceId);
    return { value: price.amount, currency: price.currency };
  }

  /**
   * The refund of ending `sub` at `at` (Unix seconds, Stripe's): the unused share of the current period's
   * value plus the credit the customer still holds (a negative balance, left by a plan change), spread over
   * the subscription's paid charges newest first. Everything is read from Stripe, so a retry plans the same.
   */
  async function planRefund(sub: ProviderSubscription, at: number) {
    const p = provider();
    const invoices = await p.paidInvoices(sub.id);
    const period = await currentPeriodValue(sub, invoices);
    const currency = period.currency ?? (await listPrices())[0]?.currency ?? 'usd';
    const unused = proratedRefund(
      period.value,
      { start: sub.currentPeriodStart, end: sub.currentPeriodEnd },
      at,
    );
    const balance = await p.customerBalance(sub.customerId);
    const credit = balance.balance < 0 && (balance.currency ?? currency) === currency ? -balance.balance : 0;
    const payments = [];
    let covered = 0;
    for (const invoice of invoices) {
      if (invoice.currency !== currency) continue;
      for (const payment of invoice.payments) {
        // Past what is owed, later payments are neither needed nor touched by an earlier attempt.
        if (covered >= unused + credit) break;
        const refunds = (await p.listRefunds(payment.paymentIntentId)).filter(liveRefund);
        const sum = (list: ProviderRefund[]) => list.reduce((total, r) => total + r.amount, 0);
        const refundedOurs = sum(refunds.filter((r) => r.subscriptionId === sub.id));
        const refundedOther = sum(refunds) - refundedOurs;
        covered += Math.max(payment.amountPaid - refundedOther, 0);
        payments.push({ ...payment, refundedOther, refundedOurs });
      }
    }
    const parts = spreadRefund(unused + credit, payments);
    return { currency, unused, credit, parts };
  }

  /** Ends the subscription now and refunds the unused part (or, for a preview, only computes it). */
  async function cancel(row: UserRow, preview: boolean): Promise<CancelSubscriptionResponse> {
    const p = provider();
    if (!row.stripeSubscriptionId) throw billingErrors.subscriptionNotFound();
    let sub = await p.retrieveSubscription(row.stripeSubscriptionId);
    if (preview) {
      if (ENDED.has(sub.status)) throw billingErrors.subscriptionNotFound();
      const plan = await planRefund(sub, Math.floor(deps.now().getTime() / 1000));
      const amount = plan.parts.reduce((total, part) => total + part.planned, 0);
      return { canceled: false, refund: { amount, currency: plan.currency }, subscription: null };
    }
    if (!ENDED.has(sub.status)) sub = await p.cancelNow(sub.id);
    // Stripe's time the subscription ended (for ours, its `canceled_at`), never our clock.
    const at = sub.endedAt ?? sub.canceledAt;
    if (at === null) throw billingErrors.subscriptionNotFound();
    const plan = await planRefund(sub, at);
    const todo = plan.parts.filter((part) => part.planned > part.done);
    const planned = plan.parts.reduce((total, part) => total + part.planned, 0);
    // Credit refunded is taken off the balance; what no payment could take back stays credit.
    const creditRefunded = Math.min(plan.credit, planned);
    // Cancelled before, and everything refunded: nothing is left to do.
    const endedHere = ENDED.has(row.stripeSubscriptionStatus ?? '');
    if (endedHere && todo.length === 0 && creditRefunded === 0) {
      await store(row, sub);
      throw billingErrors.subscriptionNotFound();
    }
    for (const part of todo) {
      // One key per (subscription, payment): a retry with the same plan never refunds twice.
      await p.refund({
        paymentIntentId: part.paymentIntentId,
        amount: part.planned - part.done,
        subscriptionId: sub.id,
        idempotencyKey: `homesitter-refund-${sub.id}-${part.paymentIntentId}`,
      });
    }
    // The credit was refunded with the rest: it must not also pay a future invoice.
    if (creditRefunded > 0)
      await p.adjustCustomerBalance({
        customerId: sub.customerId,
        amount: creditRefunded,
        currency: plan.currency,
        description: `Credit refunded on cancelling ${sub.id}`,
        idempotencyKey: `homesitter-credit-${sub.id}`,
      });
    const refund: Money = {
      amount: plan.parts.reduce((total, part) => total + Math.max(part.planned, part.done), 0),
      currency: plan.currency,
    };
    const stored = await store(row, sub, {
      stripeRefundAmount: refund.amount,
      stripeRefundCurrency: refund.currency,
    });
    log.info(
      { userId: row.id, refund: refund.amount, credit: plan.credit, currency: refund.currency },
      'subscription cancelled',
    );
    return { canceled: true, refund, subscription: await view(stored) };
  }

  /**
   * A charge was refunded (by a cancellation, or in Stripe's dashboard): when it paid the user's current
   * subscription, the stored refund becomes what Stripe has refunded on that subscription's payments in
   * all. Refunds of another subscription's charges (an old one of the same customer) change nothing.
   */
  async function followRefund(event: ProviderEvent): Promise<void> {
    const paymentIntentId = event.refund?.paymentIntentId;
    if (!event.customerId || !event.refund || !paymentIntentId) return;
    const row = await users.findRowByStripeCustomer(event.customerId);
    if (!row?.stripeSubscriptionId) return;
    const p = provider();
    const subscriptionId = await p.subscriptionOfPaymentIntent(paymentIntentId);
    if (subscriptionId !== row.stripeSubscriptionId) {
      log.info({ userId: row.id, subscription: subscriptionId }, 'stripe: refund of another charge; ignored');
      return;
    }
    let amount = 0;
    for (const invoice of await p.paidInvoices(subscriptionId)) {
      if (invoice.currency !== event.refund.currency) continue;
      for (const payment of invoice.payments)
        for (const r of await p.listRefunds(payment.paymentIntentId)) if (liveRefund(r)) amount += r.amount;
    }
    await users.updateBilling(row.id, {
      stripeRefundAmount: amount,
      stripeRefundCurrency: event.refund.currency,
    });
  }

  /** Stripe's current state of a subscription, onto the row of the customer's user. */
  async function syncSubscription(subscriptionId: string): Promise<void> {
    const sub = await provider().retrieveSubscription(subscriptionId);
    const row = await users.findRowByStripeCustomer(sub.customerId);
    if (!row) {
      log.info({ subscription: sub.id }, 'stripe: subscription of no user here; ignored');
      return;
    }
    await store(row, sub);
  }

  return {
    get configured() {
      return deps.provider !== undefined;
    },

    /** The in-app payment dialog needs the publishable key; hosted Checkout does not. */
    get inAppPayment() {
      return deps.provider?.publishableKey !== undefined && deps.provider.publishableKey !== '';
    },

    prices: () => guarded('prices', listPrices),

    async subscription(subject: string): Promise<Subscription> {
      const row = await users.requireRowBySubject(subject);
      if (!row.stripeSubscriptionId) throw billingErrors.subscriptionNotFound();
      return guarded('subscription', () => view(row));
    },

    async createCheckoutSession(subject: string, priceId: string): Promise<CheckoutSession> {
      requirePlan(priceId);
      const row = await users.requireRowBySubject(subject);
      return guarded('checkout session', async () => {
        const customerId = await ensureCustomer(row);
        await refuseSecond(row, customerId);
        const back = (path: string) =>
          `${deps.publicUrl}${path}?${CHECKOUT_SESSION_QUERY_PARAM}={CHECKOUT_SESSION_ID}`;
        const session = await provider().createCheckoutSession({
          customerId,
          userId: row.id,
          priceId,
          successUrl: back(SUBSCRIPTION_SUCCESS_PATH),
          cancelUrl: back(SUBSCRIPTION_CANCELED_PATH),
        });
        if (!session.url) throw new BillingProviderError('invalid_response', 'no_session_url', undefined);
        return { sessionId: session.id, url: session.url };
      });
    },

    async verifySession(subject: string, sessionId: string): Promise<VerifiedSession> {
      const row = await users.requireRowBySubject(subject);
      // A user who never started a checkout has no session to look at.
      if (!row.stripeCustomerId) throw billingErrors.sessionNotFound();
      return guarded('verify session', async () => {
        let session;
        try {
          session = await provider().retrieveCheckoutSession(sessionId);
        } catch (err) {
          if (err instanceof BillingProviderError && err.statusCode === 404)
            throw billingErrors.sessionNotFound();
          throw err;
        }
        if (session.customerId !== row.stripeCustomerId && session.clientReferenceId !== row.id)
          throw billingErrors.sessionNotFound();
        let subscription: Subscription | null = null;
        if (session.status === 'complete' && session.subscriptionId) {
          const sub = await provider().retrieveSubscription(session.subscriptionId);
          const stored = await store(row, sub);
          subscription = stored.stripeSubscriptionId === sub.id ? await view(stored) : null;
        }
        return {
          sessionId: session.id,
          status: session.status,
          payment_status: session.paymentStatus,
          subscription,
        };
      });
    },

    async cancel(subject: string, preview: boolean): Promise<CancelSubscriptionResponse> {
      const row = await users.requireRowBySubject(subject);
      if (!row.stripeSubscriptionId) throw billingErrors.subscriptionNotFound();
      return guarded(preview ? 'refund preview' : 'cancel', () => cancel(row, preview));
    },

    async createPaymentIntent(subject: string, priceId: string): Promise<PaymentIntent> {
      requirePlan(priceId);
      const publishableKey = provider().publishableKey;
      if (!publishableKey) throw billingErrors.inAppPaymentUnavailable();
      const row = await users.requireRowBySubject(subject);
      return guarded('payment intent', async () => {
        const customerId = await ensureCustomer(row);
        await refuseSecond(row, customerId);
        const { subscription, paymentIntent } = await provider().createIncompleteSubscription({
          customerId,
          userId: row.id,
          priceId,
        });
        await store({ ...row, stripeCustomerId: customerId }, subscription);
        return {
          paymentIntentId: paymentIntent.id,
          clientSecret: paymentIntent.clientSecret,
          publishableKey,
          amount: paymentIntent.amount,
          currency: paymentIntent.currency,
        };
      });
    },

    async activate(
      subject: string,
      input: { paymentIntentId: string; priceId: string; planId: BillingPlan },
    ): Promise<Subscription> {
      requirePlan(input.priceId, input.planId);
      const row = await users.requireRowBySubject(subject);
      const customerId = row.stripeCustomerId;
      if (!customerId) throw billingErrors.paymentNotFound();
      return guarded('activate', async () => {
        const p = provider();
        let intent;
        try {
          intent = await p.retrievePaymentIntent(input.paymentIntentId);
        } catch (err) {
          if (err instanceof BillingProviderError && err.statusCode === 404)
            throw billingErrors.paymentNotFound();
          throw err;
        }
        if (intent.customerId !== customerId) throw billingErrors.paymentNotFound();
        if (intent.status !== 'succeeded') throw billingErrors.paymentIncomplete(intent.status);
        const subscriptionId = (await p.subscriptionOfPaymentIntent(intent.id)) ?? row.stripeSubscriptionId;
        if (!subscriptionId) throw billingErrors.paymentNotFound();
        const sub = await p.retrieveSubscription(subscriptionId);
        if (sub.customerId !== customerId) throw billingErrors.paymentNotFound();
        if (sub.priceId !== input.priceId) throw billingErrors.invalidPlan();
        if (sub.status !== 'active') throw billingErrors.paymentIncomplete(sub.status);
        return view(await store(row, sub));
      });
    },

    async changePlan(
      subject: string,
      input: { priceId: string; planId: BillingPlan },
    ): Promise<Subscription> {
      requirePlan(input.priceId, input.planId);
      const row = await users.requireRowBySubject(subject);
      if (!row.stripeSubscriptionId || row.stripeSubscriptionStatus !== 'active')
        throw billingErrors.subscriptionNotFound();
      const subscriptionId = row.stripeSubscriptionId;
      return guarded('update subscription', async () => {
        const p = provider();
        const current = await p.retrieveSubscription(subscriptionId);
        if (current.status !== 'active') {
          await store(row, current);
          throw billingErrors.subscriptionNotFound();
        }
        const next =
          current.priceId === input.priceId ? current : await p.changePrice(current, input.priceId);
        return view(await store(row, next));
      });
    },

    async portal(subject: string): Promise<{ url: string }> {
      const row = await users.requireRowBySubject(subject);
      return guarded('portal', async () =>
        provider().createPortalSession({
          customerId: await ensureCustomer(row),
          returnUrl: `${deps.publicUrl}${CHANGE_PLAN_PATH}`,
        }),
      );
    },

    /** Before an account is deleted: its live subscription ends now, with the prorated refund. */
    async cancelForDeletion(userId: string): Promise<void> {
      if (!deps.provider) return;
      const row = await users.findRowById(userId);
      if (!row?.stripeSubscriptionId || ENDED.has(row.stripeSubscriptionStatus ?? 'canceled')) return;
      await guarded('cancel before deletion', async () => {
        try {
          await cancel(row, false);
        } catch (err) {
          // Already over at Stripe: nothing to end.
          if (err instanceof AppError && err.code === 'subscription.not_found') return;
          throw err;
        }
      });
    },

    /** Applies one verified webhook event (docs/billing.md lists those it reads). */
    async applyEvent(event: ProviderEvent): Promise<void> {
      await guarded(`webhook ${event.type}`, async () => {
        switch (event.type) {
          case 'checkout.session.completed':
          case 'customer.subscription.created':
          case 'customer.subscription.updated':
          case 'customer.subscription.deleted':
          case 'invoice.paid':
          case 'invoice.payment_failed':
            if (event.subscriptionId) await syncSubscription(event.subscriptionId);
            return;
          case 'charge.refunded':
            await followRefund(event);
            return;
          default:
            log.debug({ type: event.type }, 'stripe: event not used');
        }
      });
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
