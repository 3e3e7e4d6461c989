import { describe, expect, it } from 'vitest';
import { canonicalWebPushToken } from './notifications.js';
import { pushTokenRefRequestSchema, registerPushTokenRequestSchema } from './users.js';

const p256dh = `B${'A'.repeat(86)}`;
const auth = 'abcdefghijklmnopqrstuv';
const endpoint = 'https://fcm.googleapis.com/fcm/send/abc:def';
const subscription = { endpoint, expirationTime: null, keys: { p256dh, auth } };

describe('web push tokens', () => {
  it('are stored in one canonical form, whatever the key order, padding or expiry', () => {
    const canonical = JSON.stringify({ endpoint, keys: { p256dh, auth } });
    expect(canonicalWebPushToken(JSON.stringify(subscription))).toBe(canonical);
    expect(
      canonicalWebPushToken(
        JSON.stringify({ keys: { auth: `${auth}==`, p256dh: `${p256dh}=` }, endpoint, expirationTime: 1 }),
      ),
    ).toBe(canonical);
  });

  it.each([
    ['not JSON', 'device-token'],
    ['plain http', JSON.stringify({ ...subscription, endpoint: 'http://push.example.com/x' })],
    ['an IP literal', JSON.stringify({ ...subscription, endpoint: 'https://10.0.0.1/x' })],
    ['localhost', JSON.stringify({ ...subscription, endpoint: 'https://localhost/x' })],
    ['an odd port', JSON.stringify({ ...subscription, endpoint: 'https://push.example.com:8443/x' })],
    ['credentials', JSON.stringify({ ...subscription, endpoint: 'https://a:b@push.example.com/x' })],
    ['a short p256dh', JSON.stringify({ ...subscription, keys: { p256dh: 'BAAA', auth } })],
    [
      'a compressed p256dh',
      JSON.stringify({ ...subscription, keys: { p256dh: `A${'A'.repeat(86)}`, auth } }),
    ],
    ['no auth', JSON.stringify({ endpoint, keys: { p256dh } })],
  ])('refuse %s', (_what, token) => {
    expect(canonicalWebPushToken(token)).toBeUndefined();
    expect(registerPushTokenRequestSchema.safeParse({ token, platform: 'web' }).success).toBe(false);
    expect(pushTokenRefRequestSchema.safeParse({ token, platform: 'web' }).success).toBe(false);
  });

  it('leave native tokens as they are', () => {
    expect(registerPushTokenRequestSchema.parse({ token: 'device-token', platform: 'ios' })).toEqual({
      token: 'device-token',
      platform: 'ios',
      is_sandbox: false,
    });
  });

  it('name the token field when refused', () => {
    const result = registerPushTokenRequestSchema.safeParse({ token: 'nope', platform: 'web' });
    expect(result.error?.issues[0]?.path).toEqual(['token']);
  });
});
