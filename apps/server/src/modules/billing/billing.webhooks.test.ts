import { STRIPE_WEBHOOK_PATH } from '@homesitter/contract';
import { count, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/app.js';
import { stateReached } from '../../../test/calls.js';
import { stripeEvents } from '../../platform/db/schema.js';
import { call, rowOf, startBillingApp, WEBHOOK_SECRET, type BillingTestApp } from './billing.test-support.js';

let b: BillingTestApp;
beforeAll(async () => {
  b = await startBillingApp();
});
afterAll(async () => b.close());

async function checkout() {
  const who = await signUp(b.t);
  const res = await call(b.t, who, 'POST', '/api/stripe/create-checkout-session', {
    priceId: b.fake.prices.monthly,
  });
  const { sessionId } = res.json<{ data: { sessionId: string } }>().data;
  return { who, sessionId };
}

const eventsStored = async (id: string) =>
  (await b.t.database.db.select({ n: count() }).from(stripeEvents).where(eq(stripeEvents.id, id)))[0]?.n;

describe('the Stripe webhook', () => {
  it('makes the subscription active from the webhooks alone, without the success page', async () => {
    const { who, sessionId } = await checkout();
    const { subscriptionId } = await b.fake.completeCheckout(sessionId);
    const row = await rowOf(b.t, who);
    expect(row).toMatchObject({
      stripeSubscriptionId: subscriptionId,
      stripeSubscriptionStatus: 'active',
      stripePriceId: 'price_test_monthly',
    });
    expect(row.stripeCurrentPeriodEnd?.getTime()).toBe(
      Math.floor(b.fake.now() / 1000) * 1000 + 30 * 86_400_000,
    );
    const delivered = b.fake.deliveries.filter((d) => d.status === 200).map((d) => d.type);
    expect(delivered).toEqual(
      expect.arrayContaining(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']),
    );
  });

  it('applies an event delivered twice only once', async () => {
    const { who, sessionId } = await checkout();
    await b.fake.completeCheckout(sessionId);
    const event = b.fake.deliveries.findLast((d) => d.type === 'invoice.paid')!;
    expect(await eventsStored(event.id)).toBe(1);
    const before = b.fake.requests.length;
    expect(await b.fake.resend(event.id)).toBe(200);
    // The duplicate made no call to Stripe and stored nothing more.
    expect(b.fake.requests.length).toBe(before);
    expect(await eventsStored(event.id)).toBe(1);
    expect((await rowOf(b.t, who)).stripeSubscriptionStatus).toBe('active');
  });

  it('answers 400 to a bad or missing signature and changes nothing', async () => {
    const { who, sessionId } = await checkout();
    const { subscriptionId } = await b.fake.completeCheckout(sessionId);
    const forged = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'customer.subscription.deleted',
      data: { object: { ...b.fake.subscription(subscriptionId), status: 'canceled' } },
    });
    const signer = new Stripe('sk_test_x');
    const wrong = signer.webhooks.generateTestHeaderString({ payload: forged, secret: 'whsec_wrong' });
    for (const headers of [{ 'stripe-signature': wrong }, {}]) {
      const res = await b.t.app.inject({
        method: 'POST',
        url: STRIPE_WEBHOOK_PATH,
        headers: { 'content-type': 'application/json', ...headers },
        payload: forged,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'billing.signature_invalid' });
    }
    expect(await eventsStored('evt_forged')).toBe(0);
    expect((await rowOf(b.t, who)).stripeSubscriptionStatus).toBe('active');
  });

  it('follows a cancellation made at Stripe (portal) through customer.subscription.deleted', async () => {
    const { who, sessionId } = await checkout();
    const { subscriptionId } = await b.fake.completeCheckout(sessionId);
    const stripe = new Stripe(b.fake.secretKey, {
      host: '127.0.0.1',
      port: new URL(b.fake.url).port,
      protocol: 'http',
    });
    await stripe.subscriptions.cancel(subscriptionId);
    await stateReached(
      () => rowOf(b.t, who),
      (row) => row.stripeSubscriptionStatus === 'canceled',
    );
    const res = await call(b.t, who, 'GET', '/api/stripe/subscription');
    expect(res.json()).toMatchObject({ data: { status: 'canceled', next_billing_date: null } });
  });

  it('follows a failed renewal to past_due (invoice.payment_failed, then the subscription update)', async () => {
    const { who, sessionId } = await checkout();
    const { subscriptionId } = await b.fake.completeCheckout(sessionId);
    await b.fake.renew(subscriptionId, 'failed');
    expect(b.fake.deliveries.findLast((d) => d.type === 'invoice.payment_failed')?.status).toBe(200);
    expect((await rowOf(b.t, who)).stripeSubscriptionStatus).toBe('past_due');
    const res = await call(b.t, who, 'GET', '/api/stripe/subscription');
    expect(res.json()).toMatchObject({ data: { id: subscriptionId, status: 'past_due', plan: 'monthly' } });
  });

  it('stores Stripe’s refunded total of the current subscription’s charges, not of an older one', async () => {
    const stripe = new Stripe(b.fake.secretKey, {
      host: '127.0.0.1',
      port: new URL(b.fake.url).port,
      protocol: 'http',
    });
    const paymentOf = async (subscription: string) => {
      const invoices = await stripe.invoices.list({
        subscription,
        status: 'paid',
        expand: ['data.payments'],
      });
      const pi = invoices.data[0]?.payments?.data[0]?.payment.payment_intent;
      if (typeof pi !== 'string') throw new Error('no payment');
      return pi;
    };
    const refund = (payment_intent: string, amount: number) =>
      stripe.refunds.create(
        { payment_intent, amount },
        { idempotencyKey: `dashboard-${payment_intent}-${amount}` },
      );

    const first = await checkout();
    const old = await b.fake.completeCheckout(first.sessionId);
    await stripe.subscriptions.cancel(old.subscriptionId);
    await b.fake.idle();
    const again = await call(b.t, first.who, 'POST', '/api/stripe/create-checkout-session', {
      priceId: b.fake.prices.monthly,
    });
    const current = await b.fake.completeCheckout(
      again.json<{ data: { sessionId: string } }>().data.sessionId,
    );
    expect(await rowOf(b.t, first.who)).toMatchObject({
      stripeSubscriptionId: current.subscriptionId,
      stripeRefundAmount: null,
    });

    // A refund of the old subscription's charge is not this subscription's refund.
    await refund(await paymentOf(old.subscriptionId), 300);
    await b.fake.idle();
    expect(b.fake.deliveries.findLast((d) => d.type === 'charge.refunded')?.status).toBe(200);
    expect((await rowOf(b.t, first.who)).stripeRefundAmount).toBeNull();

    const pi = await paymentOf(current.subscriptionId);
    await refund(pi, 250);
    await b.fake.idle();
    expect(await rowOf(b.t, first.who)).toMatchObject({
      stripeRefundAmount: 250,
      stripeRefundCurrency: 'usd',
    });
    await refund(pi, 100);
    await b.fake.idle();
    expect((await rowOf(b.t, first.who)).stripeRefundAmount).toBe(350);
  });

  it('accepts a correctly signed event it does not use', async () => {
    const payload = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'customer.created',
      data: { object: {} },
    });
    const header = new Stripe('sk_test_x').webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
    });
    const res = await b.t.app.inject({
      method: 'POST',
      url: STRIPE_WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload,
    });
    expect(res.statusCode).toBe(200);
  });
});
