import { eq } from 'drizzle-orm';
import { STRIPE_WEBHOOK_PATH } from '@homesitter/contract';
import { createTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { startFakeStripe, type FakeStripe } from '../../../test/fake-stripe.js';
import { users } from '../../platform/db/schema.js';

export const WEBHOOK_SECRET = 'whsec_test_homesitter_0123456789abcdef';

export interface BillingTestApp {
  t: TestApp;
  fake: FakeStripe;
  /** The clock the fake Stripe and the server's refund preview share (ms); `fake.advance` moves it. */
  close(): Promise<void>;
}

/**
 * The whole server (listening on 127.0.0.1, so the fake's webhooks reach it) with Stripe pointed at a fresh
 * fake; the server's refund preview reads the fake's clock, so no amount depends on how fast a test runs.
 */
export async function startBillingApp(env: Record<string, string> = {}): Promise<BillingTestApp> {
  const frozen = Date.parse('2026-05-01T12:00:00Z');
  const fake = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET, now: () => frozen });
  const t = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_MONTHLY: fake.prices.monthly,
      STRIPE_PRICE_YEARLY: fake.prices.yearly,
      STRIPE_API_BASE: fake.url,
      ...env,
    },
    chatAnswers: false,
    analysis: false,
    billingNow: () => new Date(fake.now()),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  fake.webhookUrl = `http://127.0.0.1:${address.port}${STRIPE_WEBHOOK_PATH}`;
  return {
    t,
    fake,
    async close() {
      await fake.idle();
      await t.close();
      await fake.close();
    },
  };
}

/** The profile row of a test user. */
export async function rowOf(t: TestApp, who: TestUser) {
  const [row] = await t.database.db.select().from(users).where(eq(users.authSubject, who.uid));
  if (!row) throw new Error(`no profile for ${who.email}`);
  return row;
}

export async function call(
  t: TestApp,
  who: TestUser,
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
) {
  return t.app.inject({
    method,
    url,
    headers: who.auth,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}
