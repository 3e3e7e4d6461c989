import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, TEST_ADMIN_TOKEN, TEST_MEDIA_SECRET, type TestUser } from '../../../test/app.js';
import { recordCalls, stateReached } from '../../../test/calls.js';
import { jpegWithLocation } from '../../../test/images.js';
import { createFsStorage } from '../../adapters/storage/fs.storage.js';
import { plantUpload, uploadRow, type ActivitiesTestApp } from '../activities/activities.test-support.js';
import { createMediaSigner } from '../media/media.signer.js';
import { call, rowOf, startBillingApp, type BillingTestApp } from './billing.test-support.js';

let b: BillingTestApp;
let a: ActivitiesTestApp;
let snapshot: Buffer;
beforeAll(async () => {
  b = await startBillingApp({ FREE_EVENTS: '1' });
  const signer = createMediaSigner(TEST_MEDIA_SECRET, b.t.deps.config.PUBLIC_URL);
  const storage = createFsStorage({ root: join(b.t.deps.config.DATA_DIR, 'media'), signUrl: signer.url });
  a = { t: b.t, storage, events: { created: [], camerasChanged: [] } };
  snapshot = await jpegWithLocation(320, 240);
});
afterAll(async () => b.close());

const base = Date.now() - 3_600_000;
const upload = async (userId: string, camera: string, minutes: number) => {
  const planted = await plantUpload(a, userId, {
    camera,
    bytes: snapshot,
    contentType: 'image/jpeg',
    at: new Date(base + minutes * 60_000),
  });
  return { ...planted, outcome: await b.t.modules.activities.processUpload(planted.id) };
};

async function setFreeEvents(who: TestUser, n: number) {
  return b.t.app.inject({
    method: 'POST',
    url: '/api/admin/free-events',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    payload: { email: who.email, remaining_free_events: n },
  });
}

describe('free events with Stripe configured', () => {
  it('is on by default once a secret key is set', () => {
    expect(b.t.deps.config.BILLING_ENABLED).toBe(true);
  });

  it('limits again when a renewal fails: past_due is not an active subscription', async () => {
    const who = await signUp(b.t);
    const { id: userId } = await rowOf(b.t, who);
    const res = await call(b.t, who, 'POST', '/api/stripe/create-checkout-session', {
      priceId: b.fake.prices.monthly,
    });
    const { subscriptionId } = await b.fake.completeCheckout(
      res.json<{ data: { sessionId: string } }>().data.sessionId,
    );
    expect((await setFreeEvents(who, 0)).statusCode).toBe(200);
    expect((await upload(userId, 'Gate', 20)).outcome).toBe('created');

    await b.fake.renew(subscriptionId, 'failed');
    expect((await rowOf(b.t, who)).stripeSubscriptionStatus).toBe('past_due');
    expect((await upload(userId, 'Driveway', 40)).outcome).toBe('held');
  });

  it('holds events at 0, tells the user once by chat and push, and a subscription releases them', async () => {
    const who = await signUp(b.t);
    const { id: userId } = await rowOf(b.t, who);
    const posted = recordCalls(b.t.modules.chat, 'postAgentMessage');
    const pushed = recordCalls(b.t.modules.notifications, 'notify');

    expect((await upload(userId, 'Porch', 0)).outcome).toBe('created');
    const held = await upload(userId, 'Porch', 5);
    expect(held.outcome).toBe('held');
    const second = await upload(userId, 'Porch', 10);
    expect(second.outcome).toBe('held');

    const told = posted.calls.filter((c) => c.args[0] === userId);
    expect(told).toHaveLength(1);
    expect(told[0]!.args[1].text).toContain('http://homesitter.test/settings/account/change-plan');
    const push = pushed.calls.filter((c) => c.args[0] === userId);
    expect(push).toHaveLength(1);
    expect(push[0]!.args[1]).toMatchObject({ kind: 'chat_message', title: 'Free events used up' });

    // Subscribing (the webhooks alone) releases what was held and clears the notice.
    const res = await call(b.t, who, 'POST', '/api/stripe/create-checkout-session', {
      priceId: b.fake.prices.monthly,
    });
    await b.fake.completeCheckout(res.json<{ data: { sessionId: string } }>().data.sessionId);
    for (const u of [held, second])
      await stateReached(
        async () => (await uploadRow(b.t, u.id))?.status,
        (status) => status === 'processed',
      );
    expect((await rowOf(b.t, who)).freeEventsNoticeAt).toBeNull();
    posted.stop();
    pushed.stop();
  });

  it('tells a German user in German, and again after free events were granted and used up', async () => {
    const who = await signUp(b.t);
    await call(b.t, who, 'POST', '/api/users/preferred-language', { preferred_language: 'de' });
    const { id: userId } = await rowOf(b.t, who);
    const posted = recordCalls(b.t.modules.chat, 'postAgentMessage');

    await upload(userId, 'Hof', 0);
    expect((await upload(userId, 'Hof', 5)).outcome).toBe('held');
    expect(posted.calls.filter((c) => c.args[0] === userId)).toHaveLength(1);
    expect(posted.calls[0]!.args[1].text).toContain('Bewegungsereignisse');

    const granted = await setFreeEvents(who, 1);
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toEqual({ success: true, data: { email: who.email, remaining_free_events: 1 } });
    expect((await rowOf(b.t, who)).freeEventsNoticeAt).toBeNull();
    expect((await upload(userId, 'Hof', 20)).outcome).toBe('created');
    expect((await upload(userId, 'Hof', 25)).outcome).toBe('held');
    expect(posted.calls.filter((c) => c.args[0] === userId)).toHaveLength(2);
    posted.stop();
  });
});

describe('the operator’s free-events call', () => {
  it('sets a user’s free events by email, and answers 404 for an unknown email', async () => {
    const who = await signUp(b.t);
    expect((await setFreeEvents(who, 42)).statusCode).toBe(200);
    expect((await rowOf(b.t, who)).remainingFreeEvents).toBe(42);
    const res = await b.t.app.inject({
      method: 'POST',
      url: '/api/admin/free-events',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { email: 'nobody@example.com', remaining_free_events: 3 },
    });
    expect(res.statusCode).toBe(404);
    const user = await call(b.t, who, 'POST', '/api/admin/free-events', {
      email: who.email,
      remaining_free_events: 1000,
    });
    expect(user.statusCode).toBe(403);
  });
});

describe('deleting the account', () => {
  it('cancels the subscription with its prorated refund first', async () => {
    const who = await signUp(b.t);
    const res = await call(b.t, who, 'POST', '/api/stripe/create-checkout-session', {
      priceId: b.fake.prices.yearly,
    });
    const { subscriptionId } = await b.fake.completeCheckout(
      res.json<{ data: { sessionId: string } }>().data.sessionId,
    );
    b.fake.advance(73 * 86_400);

    // Stripe failing stops the deletion; nothing is deleted.
    b.fake.failNext('DELETE /v1/subscriptions');
    const failed = await b.t.app.inject({ method: 'DELETE', url: '/api/users', headers: who.auth });
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({
      message: 'Failed to delete user',
      code: 'billing.provider_failed',
    });
    expect((await rowOf(b.t, who)).stripeSubscriptionStatus).toBe('active');

    const deleted = await b.t.app.inject({ method: 'DELETE', url: '/api/users', headers: who.auth });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(b.fake.subscription(subscriptionId)?.status).toBe('canceled');
    // 292 of 365 days unused of 90.00 USD.
    expect(b.fake.refunds.at(-1)).toMatchObject({ amount: 7200, currency: 'usd' });
    await expect(rowOf(b.t, who)).rejects.toThrow('no profile');
  });
});
