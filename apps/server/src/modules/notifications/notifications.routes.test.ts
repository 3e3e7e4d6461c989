import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fcmRegistrationToken, startFakeFcm, type FakeFcm } from '../../../test/fake-push-services.js';
import { startFakeTwilio } from '../../../test/fake-twilio.js';
import { createTestApp, signUp, type TestApp } from '../../../test/app.js';
import { createServer } from '../../app.js';
import { ConfigError, loadConfig } from '../../platform/config.js';
import { createNotificationsFromConfig } from './notifications.from-config.js';
import type { Notification, NotificationsService } from './notifications.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const p256dh = `B${'Q'.repeat(86)}`;
const auth = 'c2VjcmV0LWF1dGgtMTIzNA';
const subscription = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/dXNlci0x:APA91bExample',
  expirationTime: null,
  keys: { p256dh, auth },
};

describe('GET /api/push/vapid-public-key', () => {
  it('answers the key generated into DATA_DIR/vapid.json, without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/push/vapid-public-key' });
    expect(res.statusCode).toBe(200);
    const stored = JSON.parse(readFileSync(join(t.deps.config.DATA_DIR, 'vapid.json'), 'utf8')) as {
      publicKey: string;
    };
    expect(res.json()).toEqual({ success: true, data: { public_key: stored.publicKey } });
  });
});

describe('GET /api/push/channels', () => {
  it('says texts cannot go out without an SMS provider, and web push can, without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/push/channels' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: { web_push: true, android_push: false, ios_push: false, sms_mms: false },
    });
  });
});

describe('web push tokens through the push-token endpoints', () => {
  it('store the subscription in its canonical form and find it again however the JSON is ordered', async () => {
    const user = await signUp(t);
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/users/push-notification-token',
      headers: user.auth,
      payload: { token: JSON.stringify(subscription), platform: 'web' },
    });
    expect(reg.statusCode).toBe(200);
    const canonical = JSON.stringify({ endpoint: subscription.endpoint, keys: { p256dh, auth } });
    expect(reg.json().data).toEqual({ token: canonical, platform: 'web', is_sandbox: false, enabled: true });

    const reordered = JSON.stringify({ keys: { auth, p256dh }, endpoint: subscription.endpoint });
    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/users/verify-push-token',
      headers: user.auth,
      payload: { token: reordered, platform: 'web' },
    });
    expect(verify.json().data).toEqual({ isValid: true });
    const disabled = await t.app.inject({
      method: 'POST',
      url: '/api/users/push-notification-token/disable',
      headers: user.auth,
      payload: { token: reordered, platform: 'web' },
    });
    expect(disabled.json().data.enabled).toBe(false);
  });

  it('refuse a web token that is not a subscription to a public https push service, storing nothing', async () => {
    const user = await signUp(t);
    for (const token of [
      'opaque-device-token',
      JSON.stringify({ ...subscription, endpoint: 'https://169.254.169.254/latest/meta-data' }),
      JSON.stringify({ ...subscription, endpoint: 'http://push.example.com/x' }),
      JSON.stringify({ ...subscription, keys: { p256dh: 'short', auth } }),
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users/push-notification-token',
        headers: user.auth,
        payload: { token, platform: 'web' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([expect.objectContaining({ field: 'token' })]);
    }
    const rows = await t.database.query<{ n: number }>(
      'select count(*)::int as n from push_tokens t join users u on u.id = t.user_id where u.auth_subject = $1',
      [user.uid],
    );
    expect(rows[0]?.n).toBe(0);
  });
});

describe('app.notifications from the configuration', () => {
  let fcm: FakeFcm;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  beforeAll(async () => {
    [fcm, twilio] = await Promise.all([startFakeFcm(), startFakeTwilio()]);
  });
  afterAll(async () => {
    await Promise.all([fcm.close(), twilio.close()]);
  });

  it('uses FCM and Twilio when FCM_* and TWILIO_* are set', async () => {
    const app = await createTestApp({
      env: {
        FCM_PROJECT_ID: fcm.projectId,
        FCM_CLIENT_EMAIL: fcm.account.clientEmail,
        // As an environment variable usually carries it: one line with \n escapes.
        FCM_PRIVATE_KEY: fcm.account.privateKey.replace(/\n/g, '\\n'),
        FCM_TOKEN_URL: fcm.tokenUrl,
        FCM_BASE_URL: fcm.baseUrl,
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_MESSAGING_SERVICE_SID: 'MG42',
        TWILIO_BASE_URL: twilio.baseUrl,
      },
    });
    try {
      // The web app learns that texts and Android pushes can go out.
      const channels = await app.app.inject({ method: 'GET', url: '/api/push/channels' });
      expect(channels.json().data).toEqual({
        web_push: true,
        android_push: true,
        ios_push: false,
        sms_mms: true,
      });
      const user = await signUp(app);
      const token = fcmRegistrationToken();
      await app.app.inject({
        method: 'POST',
        url: '/api/users/push-notification-token',
        headers: user.auth,
        payload: { token, platform: 'android' },
      });
      const profile = await app.app.inject({ method: 'GET', url: '/api/users/profile', headers: user.auth });
      const result = await app.modules.notifications.notify(profile.json().data.user_uuid, {
        kind: 'activity_alert',
        activityUuid: crypto.randomUUID(),
        title: 'Driveway',
        body: 'A car stopped in the Driveway.',
        thumbnailUrl: 'https://home.example.com/t.jpg',
      });
      expect(result).toEqual({ pushed: 1, sms: true });
      expect(fcm.received.map((r) => r.token)).toEqual([token]);
      expect(twilio.received).toEqual([
        {
          To: '+15551234567',
          MessagingServiceSid: 'MG42',
          Body: 'Driveway: A car stopped in the Driveway.',
          MediaUrl: 'https://home.example.com/t.jpg',
        },
      ]);
    } finally {
      await app.close();
    }
  });

  it('answers the configured VAPID key when VAPID_* is set', () => {
    const keys = webpush.generateVAPIDKeys();
    const config = loadConfig({
      DATA_DIR: t.deps.config.DATA_DIR,
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
    });
    const notifications = createNotificationsFromConfig(config, { db: t.database.db, log: t.deps.log });
    expect(notifications.webPushPublicKey).toBe(keys.publicKey);
  });

  it.each([
    [{ APNS_KEY_ID: 'ABC123DEFG' }, /APNS_TEAM_ID/],
    [{ FCM_PROJECT_ID: 'p' }, /FCM_CLIENT_EMAIL/],
    [{ FCM_PROJECT_ID: 'p', FCM_CLIENT_EMAIL: 'a@b.c', FCM_PRIVATE_KEY: 'not a key' }, /private key/],
    [{ TWILIO_ACCOUNT_SID: 'AC1' }, /TWILIO_AUTH_TOKEN/],
    [{ TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'x' }, /TWILIO_FROM/],
    [{ VAPID_PUBLIC_KEY: 'x' }, /VAPID_PRIVATE_KEY/],
    [{ VAPID_SUBJECT: 'ops@example.com' }, /mailto/],
  ])('refuses to start with a provider half configured: %o', (env, message) => {
    const config = loadConfig({ DATA_DIR: t.deps.config.DATA_DIR, ...env });
    const build = () => createNotificationsFromConfig(config, { db: t.database.db, log: t.deps.log });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(message);
  });

  it('takes a notifications service from AppDeps, for tests of its callers', async () => {
    const calls: [string, Notification][] = [];
    const fake: NotificationsService = {
      webPushPublicKey: 'BFAKE',
      channels: { web_push: true, android_push: false, ios_push: false, sms_mms: false },
      notify: async (userId, n) => {
        calls.push([userId, n]);
        return { pushed: 0, sms: false };
      },
      close: async () => {},
    };
    const { app, modules } = await createServer({ ...t.deps, notifications: fake });
    try {
      await modules.notifications.notify('u', {
        kind: 'chat_message',
        messageUuid: 'm',
        title: 'a',
        body: 'b',
      });
      expect(calls).toHaveLength(1);
      const res = await app.inject({ method: 'GET', url: '/api/push/vapid-public-key' });
      expect(res.json().data.public_key).toBe('BFAKE');
    } finally {
      await app.close();
    }
  });
});
