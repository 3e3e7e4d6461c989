import { BILLING_NOT_CONFIGURED_MESSAGE, STRIPE_WEBHOOK_PATH, endpoints } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';

let t: TestApp;
let who: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  who = await signUp(t);
});
afterAll(async () => t.close());

const PAYMENT_CALLS = [
  endpoints.getPrices,
  endpoints.createCheckoutSession,
  endpoints.getSubscription,
  endpoints.verifyCheckoutSession,
  endpoints.cancelSubscription,
  endpoints.createPaymentIntent,
  endpoints.activateSubscription,
  endpoints.updateSubscription,
  endpoints.createPortalSession,
];

describe('without Stripe configured', () => {
  it('has no limits: billing is off by default', () => {
    expect(t.deps.config.BILLING_ENABLED).toBe(false);
  });

  it.each(PAYMENT_CALLS.map((e) => [`${e.method} ${e.path}`, e] as const))(
    'answers 503 billing.not_configured to %s',
    async (_name, endpoint) => {
      const res = await t.app.inject({
        method: endpoint.method,
        url: endpoint.path.replace(':sessionId', 'cs_test_1'),
        headers: who.auth,
        ...(endpoint.method === 'POST' ? { payload: {} } : {}),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        success: false,
        code: 'billing.not_configured',
        message: BILLING_NOT_CONFIGURED_MESSAGE,
      });
    },
  );

  it('still asks for a token first', async () => {
    const res = await t.app.inject({ method: 'GET', url: endpoints.getPrices.path });
    expect(res.statusCode).toBe(401);
  });

  it('answers 503 to the webhook too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: STRIPE_WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'billing.not_configured' });
  });
});
