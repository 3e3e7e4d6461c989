import { MESSAGES } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/app.js';
import { call, startBillingApp, type BillingTestApp } from './billing.test-support.js';

let b: BillingTestApp;
beforeAll(async () => {
  // Stripe without a publishable key: hosted Checkout only.
  b = await startBillingApp({ STRIPE_PUBLISHABLE_KEY: '' });
});
afterAll(async () => b.close());

describe('Stripe without a publishable key', () => {
  it('says in-app payment is unavailable with the prices', async () => {
    const who = await signUp(b.t);
    const res = await call(b.t, who, 'GET', '/api/stripe/prices');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, in_app_payment: false });
  });

  it('answers the payment dialog’s call with its own 503, and Checkout still works', async () => {
    const who = await signUp(b.t);
    const intent = await call(b.t, who, 'POST', '/api/stripe/create-payment-intent', {
      priceId: b.fake.prices.monthly,
    });
    expect(intent.statusCode).toBe(503);
    // The call's §8 text as the message (as every failure of this call), the reason in its own code.
    expect(intent.json()).toMatchObject({
      success: false,
      code: 'billing.in_app_payment_unavailable',
      message: MESSAGES.createPaymentIntentFailed,
      details: [{ message: 'In-app payment is not available on this server; pay through Checkout instead' }],
    });
    const checkout = await call(b.t, who, 'POST', '/api/stripe/create-checkout-session', {
      priceId: b.fake.prices.monthly,
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
  });
});
