import { MESSAGES } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/app.js';
import { stateReached } from '../../../test/calls.js';
import { call, rowOf, startBillingApp, type BillingTestApp } from './billing.test-support.js';

let b: BillingTestApp;
beforeAll(async () => {
  b = await startBillingApp();
});
afterAll(async () => b.close());

const DAY = 86_400;

/** A user subscribed through hosted Checkout (the Pay button), the webhooks answered. */
async function subscribedUser(plan: 'monthly' | 'yearly' = 'monthly') {
  const who = await signUp(b.t);
  const res = await call(b.t, who, 'POST', '/api/stripe/create-checkout-session', {
    priceId: b.fake.prices[plan],
  });
  expect(res.statusCode, res.body).toBe(200);
  const { sessionId } = res.json<{ data: { sessionId: string } }>().data;
  const { subscriptionId } = await b.fake.completeCheckout(sessionId);
  await stateReached(
    () => rowOf(b.t, who),
    (row) => row.stripeSubscriptionStatus === 'active',
  );
  return { who, sessionId, subscriptionId };
}

describe('prices', () => {
  it('lists the monthly and yearly prices with Stripe’s amounts', async () => {
    const who = await signUp(b.t);
    const res = await call(b.t, who, 'GET', '/api/stripe/prices');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: [
        { id: 'price_test_monthly', plan: 'monthly', amount: 900, currency: 'usd', interval: 'month' },
        { id: 'price_test_yearly', plan: 'yearly', amount: 9000, currency: 'usd', interval: 'year' },
      ],
      in_app_payment: true,
    });
  });
});

describe('hosted Checkout', () => {
  it('creates one customer for the user and a session returning to the subscription screens', async () => {
    const who = await signUp(b.t);
    const first = await call(b.t, who, 'POST', '/api/stripe/create-checkout-session', {
      priceId: b.fake.prices.yearly,
    });
    expect(first.statusCode, first.body).toBe(200);
    const session = first.json<{ data: { sessionId: string; url: string } }>().data;
    expect(session.url).toBe(`${b.fake.url}/checkout/${session.sessionId}`);
    const sent = b.fake.requests.find(
      (r) => r.path === '/v1/checkout/sessions' && r.method === 'POST' && r.params.client_reference_id,
    );
    expect(sent?.params).toMatchObject({
      success_url: 'http://homesitter.test/subscription/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://homesitter.test/subscription/canceled?session_id={CHECKOUT_SESSION_ID}',
      mode: 'subscription',
    });
    const row = await rowOf(b.t, who);
    expect(row.stripeCustomerId).toMatch(/^cus_/);
    const customerCall = b.fake.requests.find(
      (r) => r.path === '/v1/customers' && r.params.email === who.email,
    );
    expect(customerCall?.idempotencyKey).toBe(`homesitter-customer-${row.id}`);

    await call(b.t, who, 'POST', '/api/stripe/create-checkout-session', { priceId: b.fake.prices.monthly });
    expect((await rowOf(b.t, who)).stripeCustomerId).toBe(row.stripeCustomerId);
  });

  it('follows the webhooks to an active subscription, and verify-session answers it', async () => {
    const { who, sessionId, subscriptionId } = await subscribedUser();
    const res = await call(b.t, who, 'GET', `/api/stripe/verify-session/${sessionId}`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<{ data: Record<string, unknown> }>().data;
    expect(data).toMatchObject({
      sessionId,
      status: 'complete',
      payment_status: 'paid',
      subscription: { id: subscriptionId, status: 'active', plan: 'monthly', cancel_at_period_end: false },
    });
    const sub = await call(b.t, who, 'GET', '/api/stripe/subscription');
    expect(sub.statusCode).toBe(200);
    expect(sub.json<{ data: Record<string, unknown> }>().data).toMatchObject({
      id: subscriptionId,
      status: 'active',
      plan: 'monthly',
      price: { id: 'price_test_monthly', amount: 900 },
      next_billing_date: new Date(b.fake.now() + 30 * DAY * 1000).toISOString(),
      end_date: null,
      refund: null,
    });
    const profile = await call(b.t, who, 'GET', '/api/users/profile');
    expect(profile.json<{ data: { stripe_data: unknown } }>().data.stripe_data).toMatchObject({
      subscription: { id: subscriptionId, status: 'active' },
    });
  });

  it('refuses a second subscription while one is active', async () => {
    const { who } = await subscribedUser();
    for (const path of ['create-checkout-session', 'create-payment-intent']) {
      const res = await call(b.t, who, 'POST', `/api/stripe/${path}`, { priceId: b.fake.prices.yearly });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'billing.already_subscribed' });
    }
  });

  it('answers 404 for another user’s session and for an unknown one', async () => {
    const { sessionId } = await subscribedUser();
    const other = await signUp(b.t);
    await call(b.t, other, 'GET', '/api/stripe/prices');
    await call(b.t, other, 'POST', '/api/stripe/create-portal-session');
    for (const id of [sessionId, 'cs_test_nothing']) {
      const res = await call(b.t, other, 'GET', `/api/stripe/verify-session/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'billing.session_not_found' });
    }
  });

  it('answers 404 subscription.not_found for a user who never subscribed', async () => {
    const who = await signUp(b.t);
    const res = await call(b.t, who, 'GET', '/api/stripe/subscription');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'subscription.not_found' });
  });

  it('serves the Checkout page, whose Pay button redirects to the success screen', async () => {
    const who = await signUp(b.t);
    const res = await call(b.t, who, 'POST', '/api/stripe/create-checkout-session', {
      priceId: b.fake.prices.monthly,
    });
    const { url, sessionId } = res.json<{ data: { url: string; sessionId: string } }>().data;
    const page = await fetch(url);
    expect(await page.text()).toContain('<button type="submit">Pay</button>');
    const paid = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(
      `http://homesitter.test/subscription/success?session_id=${sessionId}`,
    );
    // The webhooks were answered before the redirect.
    expect((await rowOf(b.t, who)).stripeSubscriptionStatus).toBe('active');
  });
});

describe('the in-app payment dialog', () => {
  it('creates an incomplete subscription, then activates it once the payment succeeded', async () => {
    const who = await signUp(b.t);
    const res = await call(b.t, who, 'POST', '/api/stripe/create-payment-intent', {
      priceId: b.fake.prices.yearly,
    });
    expect(res.statusCode, res.body).toBe(200);
    const intent = res.json<{ data: Record<string, string | number> }>().data;
    expect(intent).toMatchObject({ publishableKey: b.fake.publishableKey, amount: 9000, currency: 'usd' });
    expect(String(intent.clientSecret)).toMatch(new RegExp(`^${String(intent.paymentIntentId)}_secret_`));
    const sent = b.fake.requests.find((r) => r.path === '/v1/subscriptions' && r.method === 'POST');
    expect(sent?.params).toMatchObject({ payment_behavior: 'default_incomplete' });

    const body = { paymentIntentId: intent.paymentIntentId, priceId: b.fake.prices.yearly, planId: 'yearly' };
    const early = await call(b.t, who, 'POST', '/api/stripe/activate-subscription', body);
    expect(early.statusCode).toBe(402);
    expect(early.json()).toMatchObject({ code: 'billing.payment_incomplete' });

    const wrongPlan = await call(b.t, who, 'POST', '/api/stripe/activate-subscription', {
      ...body,
      planId: 'monthly',
    });
    expect(wrongPlan.statusCode).toBe(400);
    expect(wrongPlan.json()).toMatchObject({ code: 'billing.invalid_plan', message: MESSAGES.invalidPlan });

    await b.fake.succeedPaymentIntent(String(intent.paymentIntentId));
    const done = await call(b.t, who, 'POST', '/api/stripe/activate-subscription', body);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ data: { status: 'active', plan: 'yearly' } });

    const stranger = await signUp(b.t);
    await call(b.t, stranger, 'POST', '/api/stripe/create-portal-session');
    const theirs = await call(b.t, stranger, 'POST', '/api/stripe/activate-subscription', body);
    expect(theirs.statusCode).toBe(404);
  });

  it('refuses a price that is none of ours', async () => {
    const who = await signUp(b.t);
    const res = await call(b.t, who, 'POST', '/api/stripe/create-payment-intent', { priceId: 'price_other' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'billing.invalid_plan', message: MESSAGES.invalidPlan });
  });
});

describe('changing plan', () => {
  it('moves monthly to yearly with Stripe’s proration', async () => {
    const { who, subscriptionId } = await subscribedUser('monthly');
    b.fake.advance(10 * DAY);
    const res = await call(b.t, who, 'POST', '/api/stripe/update-subscription', {
      priceId: b.fake.prices.yearly,
      planId: 'yearly',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { id: subscriptionId, plan: 'yearly', status: 'active' } });
    const sent = b.fake.requests.findLast((r) => r.path === `/v1/subscriptions/${subscriptionId}`);
    expect(sent?.params).toMatchObject({ proration_behavior: 'always_invoice' });
    expect((await rowOf(b.t, who)).stripePriceId).toBe('price_test_yearly');
  });

  it('refuses a plan that does not match the price, and a user without a subscription', async () => {
    const { who } = await subscribedUser('monthly');
    const wrong = await call(b.t, who, 'POST', '/api/stripe/update-subscription', {
      priceId: b.fake.prices.yearly,
      planId: 'monthly',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: MESSAGES.invalidPlan });
    const none = await signUp(b.t);
    const res = await call(b.t, none, 'POST', '/api/stripe/update-subscription', {
      priceId: b.fake.prices.yearly,
      planId: 'yearly',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('cancelling with a prorated refund', () => {
  it('refunds the unused part mid-period, and the preview answered the same amount', async () => {
    const { who, subscriptionId } = await subscribedUser('monthly');
    b.fake.advance(12 * DAY);
    const preview = await call(b.t, who, 'POST', '/api/stripe/cancel-subscription', { preview: true });
    expect(preview.statusCode, preview.body).toBe(200);
    // 18 of 30 days unused of 9.00 USD.
    expect(preview.json()).toEqual({
      success: true,
      data: { canceled: false, refund: { amount: 540, currency: 'usd' }, subscription: null },
    });
    expect(b.fake.subscription(subscriptionId)?.status).toBe('active');

    const res = await call(b.t, who, 'POST', '/api/stripe/cancel-subscription', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      data: {
        canceled: true,
        refund: { amount: 540, currency: 'usd' },
        subscription: {
          status: 'canceled',
          refund: { amount: 540, currency: 'usd' },
          next_billing_date: null,
        },
      },
    });
    const refund = b.fake.refunds.find((r) => r.amount === 540);
    expect(refund?.metadata).toEqual({ homesitter_subscription: subscriptionId });
    expect(
      b.fake.requests.findLast((r) => r.path === '/v1/refunds' && r.method === 'POST')?.idempotencyKey,
    ).toBe(`homesitter-refund-${subscriptionId}-${refund?.payment_intent}`);

    const again = await call(b.t, who, 'POST', '/api/stripe/cancel-subscription', {});
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'subscription.not_found' });
    await b.fake.idle();
    expect((await rowOf(b.t, who)).stripeRefundAmount).toBe(540);
  });

  it('refunds a small amount on the last day', async () => {
    const { who } = await subscribedUser('monthly');
    b.fake.advance(30 * DAY - 3600);
    const res = await call(b.t, who, 'POST', '/api/stripe/cancel-subscription', {});
    expect(res.statusCode, res.body).toBe(200);
    // One hour of 30 days: 900 × 3600 / 2 592 000 = 1.25 → 1 cent.
    expect(res.json()).toMatchObject({ data: { refund: { amount: 1, currency: 'usd' } } });
  });
});

describe('cancelling after a plan change', () => {
  const change = async (
    who: Awaited<ReturnType<typeof subscribedUser>>['who'],
    plan: 'monthly' | 'yearly',
  ) => {
    const res = await call(b.t, who, 'POST', '/api/stripe/update-subscription', {
      priceId: b.fake.prices[plan],
      planId: plan,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const refundsOf = (subscriptionId: string) =>
    b.fake.refunds.filter((r) => r.metadata.homesitter_subscription === subscriptionId);

  it('refunds the yearly plan’s unused value after monthly → yearly, from both charges', async () => {
    const { who, subscriptionId } = await subscribedUser('monthly');
    b.fake.advance(10 * DAY);
    // 20 of 30 days unused of 9.00 are credited: the yearly invoice charges 90.00 − 6.00 = 84.00.
    await change(who, 'yearly');
    b.fake.advance(3600);
    const preview = await call(b.t, who, 'POST', '/api/stripe/cancel-subscription', { preview: true });
    // The year is worth 90.00; one hour of it is used: 9000 × (365 d − 1 h) / 365 d = 8998.97 → 8998.
    expect(preview.json()).toMatchObject({ data: { canceled: false, refund: { amount: 8998 } } });

    const res = await call(b.t, who, 'POST', '/api/stripe/cancel-subscription', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      data: { canceled: true, refund: { amount: 8998, currency: 'usd' } },
    });
    // The newest charge (84.00) is refunded in full, the rest (5.98) from the first month's 9.00.
    expect(refundsOf(subscriptionId).map((r) => r.amount)).toEqual([8400, 598]);
    const keys = b.fake.requests
      .filter((r) => r.path === '/v1/refunds' && r.method === 'POST')
      .slice(-2)
      .map((r) => r.idempotencyKey);
    expect(keys).toEqual(
      refundsOf(subscriptionId).map((r) => `homesitter-refund-${subscriptionId}-${r.payment_intent}`),
    );

    const again = await call(b.t, who, 'POST', '/api/stripe/cancel-subscription', {});
    expect(again.statusCode).toBe(404);
    expect(refundsOf(subscriptionId)).toHaveLength(2);
    // The charge.refunded webhooks leave the stored refund at Stripe's total for both charges.
    await b.fake.idle();
    expect((await rowOf(b.t, who)).stripeRefundAmount).toBe(8998);
  });

  it('refunds the credit left by yearly → monthly with the month’s unused part, and zeroes the balance', async () => {
    const { who, subscriptionId } = await subscribedUser('yearly');
    const customerId = (await rowOf(b.t, who)).stripeCustomerId!;
    b.fake.advance(100 * DAY);
    // 265 of 365 days unused of 90.00: 65.34 credit; the month costs 9.00, so 56.34 stays as credit.
    await change(who, 'monthly');
    expect(b.fake.customerBalance(customerId)).toBe(-5634);
    b.fake.advance(10 * DAY);
    const preview = await call(b.t, who, 'POST', '/api/stripe/cancel-subscription', { preview: true });
    // 20 of 30 days of 9.00 (6.00) and the 56.34 credit.
    expect(preview.json()).toMatchObject({ data: { refund: { amount: 6234, currency: 'usd' } } });

    // The balance correction fails once: the retry does not refund again, it only finishes.
    b.fake.failNext('POST /v1/customers');
    const failed = await call(b.t, who, 'POST', '/api/stripe/cancel-subscription', {});
    expect(failed.statusCode).toBe(502);
    expect(refundsOf(subscriptionId).map((r) => r.amount)).toEqual([6234]);
    expect(b.fake.customerBalance(customerId)).toBe(-5634);

    const res = await call(b.t, who, 'POST', '/api/stripe/cancel-subscription', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { canceled: true, refund: { amount: 6234, currency: 'usd' } } });
    expect(refundsOf(subscriptionId).map((r) => r.amount)).toEqual([6234]);
    expect(b.fake.customerBalance(customerId)).toBe(0);
    const adjustment = b.fake.requests.findLast((r) => r.path.endsWith('/balance_transactions'));
    expect(adjustment).toMatchObject({
      params: { amount: '5634', currency: 'usd' },
      idempotencyKey: `homesitter-credit-${subscriptionId}`,
    });

    const again = await call(b.t, who, 'POST', '/api/stripe/cancel-subscription', {});
    expect(again.statusCode).toBe(404);
    expect(refundsOf(subscriptionId)).toHaveLength(1);
  });
});

describe('the billing portal', () => {
  it('opens a portal session returning to change plan', async () => {
    const who = await signUp(b.t);
    const res = await call(b.t, who, 'POST', '/api/stripe/create-portal-session');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: { url: string } }>().data.url).toMatch(`${b.fake.url}/portal/`);
    expect(b.fake.requests.findLast((r) => r.path === '/v1/billing_portal/sessions')?.params).toMatchObject({
      return_url: 'http://homesitter.test/settings/account/change-plan',
    });
  });
});

describe('when Stripe fails', () => {
  const cases: [string, 'GET' | 'POST', string, unknown, string, string | undefined][] = [
    [
      'prices',
      'GET',
      '/api/stripe/prices',
      undefined,
      'GET /v1/prices',
      MESSAGES.loadSubscriptionPricesFailed,
    ],
    [
      'checkout',
      'POST',
      '/api/stripe/create-checkout-session',
      { priceId: 'price_test_monthly' },
      'POST /v1/checkout',
      MESSAGES.startCheckoutFailed,
    ],
    [
      'payment intent',
      'POST',
      '/api/stripe/create-payment-intent',
      { priceId: 'price_test_monthly' },
      'POST /v1/subscriptions',
      MESSAGES.createPaymentIntentFailed,
    ],
    [
      'portal',
      'POST',
      '/api/stripe/create-portal-session',
      undefined,
      'POST /v1/billing_portal',
      MESSAGES.openBillingPortalFailed,
    ],
  ];
  it.each(cases)('answers 502 with the §8 text (%s)', async (_name, method, url, body, prefix, message) => {
    const who = await signUp(b.t);
    if (prefix === 'GET /v1/prices')
      b.fake.advance(600); // past the 5 minutes the prices are cached
    else await call(b.t, who, 'GET', '/api/stripe/prices');
    b.fake.failNext(prefix);
    const res = await call(b.t, who, method, url, body);
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json()).toMatchObject({ success: false, code: 'billing.provider_failed', message });
  });

  it('answers 502 for the subscription, verify, cancel, activate and plan change calls', async () => {
    const { who, sessionId } = await subscribedUser();
    const tries: [string, 'GET' | 'POST', string, unknown, string | undefined][] = [
      [
        'GET /v1/checkout',
        'GET',
        `/api/stripe/verify-session/${sessionId}`,
        undefined,
        MESSAGES.verifySubscriptionFailed,
      ],
      ['GET /v1/subscriptions', 'POST', '/api/stripe/cancel-subscription', { preview: true }, undefined],
      [
        'GET /v1/subscriptions',
        'POST',
        '/api/stripe/update-subscription',
        { priceId: 'price_test_yearly', planId: 'yearly' },
        MESSAGES.updateSubscriptionFailed,
      ],
      [
        'GET /v1/payment_intents',
        'POST',
        '/api/stripe/activate-subscription',
        { paymentIntentId: 'pi_x', priceId: 'price_test_yearly', planId: 'yearly' },
        MESSAGES.activateSubscriptionFailed,
      ],
    ];
    for (const [prefix, method, url, body, message] of tries) {
      b.fake.failNext(prefix);
      const res = await call(b.t, who, method, url, body);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(502);
      expect(res.json()).toMatchObject({ code: 'billing.provider_failed', ...(message ? { message } : {}) });
    }
    // The subscription answer reads the prices (cached 5 minutes).
    b.fake.advance(600);
    b.fake.failNext('GET /v1/prices');
    const res = await call(b.t, who, 'GET', '/api/stripe/subscription');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ success: false, code: 'billing.provider_failed' });
    expect((await rowOf(b.t, who)).stripeSubscriptionStatus).toBe('active');
  });
});
