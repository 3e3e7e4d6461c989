import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apnsDeviceToken,
  fcmRegistrationToken,
  startFakeApns,
  startFakeFcm,
  startFakeWebPush,
  type FakeApns,
  type FakeFcm,
  type FakeServiceControls,
  type FakeWebPush,
} from '../../../test/fake-push-services.js';
import { createApnsProvider } from './apns.push.js';
import { createFcmProvider } from './fcm.push.js';
import { PushProviderError, type PushMessage, type PushProvider, type PushTarget } from './push.js';
import { loadVapidKeys } from './vapid-keys.js';
import { createWebPushProvider } from './webpush.push.js';

const alert: PushMessage = {
  title: 'Front Door',
  body: 'Rose walked up to the Front Door at 3:12 PM.',
  data: { notification_type: 'ACTIVITY_ALERT', activity_uuid: '6f1c8a52-3d4e-4f60-9a7b-1c2d3e4f5a6b' },
  imageUrl: 'https://homesitter.test/media/thumb.jpg?exp=1&sig=abc',
  collapseKey: '6f1c8a52-3d4e-4f60-9a7b-1c2d3e4f5a6b',
  language: 'en',
};
const answer: PushMessage = {
  title: 'Homesitter',
  body: 'Nobody came by today.',
  data: { notification_type: 'CHAT_MESSAGE', chat_message_id: 'a1b2c3d4-0000-4000-8000-000000000001' },
};

/** One push service with its provider: the same promises for every implementation. */
interface Port {
  provider: PushProvider;
  service: FakeServiceControls;
  target(): PushTarget;
  close(): Promise<void>;
}

async function webPushPort(): Promise<Port & { service: FakeWebPush }> {
  const vapid = loadVapidKeys({
    publicKey: undefined,
    privateKey: undefined,
    subject: 'mailto:ops@homesitter.test',
    dataDir: mkdtempSync(join(tmpdir(), 'hs-vapid-')),
  });
  const service = await startFakeWebPush(vapid.publicKey);
  const provider = createWebPushProvider({ vapid, timeoutMs: 5000, agent: service.agent });
  return {
    provider,
    service,
    target: () => ({ token: service.subscribe(), platform: 'web', isSandbox: false }),
    close: async () => {
      await provider.close();
      await service.close();
    },
  };
}

async function fcmPort(): Promise<Port & { service: FakeFcm }> {
  const service = await startFakeFcm();
  const provider = createFcmProvider({
    account: service.account,
    tokenUrl: service.tokenUrl,
    baseUrl: service.baseUrl,
    timeoutMs: 5000,
  });
  return {
    provider,
    service,
    target: () => ({ token: fcmRegistrationToken(), platform: 'android', isSandbox: false }),
    close: async () => {
      await provider.close();
      await service.close();
    },
  };
}

async function apnsPort(): Promise<Port & { service: FakeApns }> {
  const service = await startFakeApns();
  const provider = createApnsProvider({
    ...service.key,
    baseUrl: service.baseUrl,
    ca: service.ca,
    timeoutMs: 5000,
  });
  return {
    provider,
    service,
    target: () => ({ token: apnsDeviceToken(), platform: 'ios', isSandbox: false }),
    close: async () => {
      await provider.close();
      await service.close();
    },
  };
}

describe.each([
  ['Web Push', webPushPort],
  ['FCM', fcmPort],
  ['APNs', apnsPort],
])('%s provider', (_name, makePort: () => Promise<Port>) => {
  let port: Port;
  beforeAll(async () => {
    port = await makePort();
  });
  afterAll(async () => port.close());

  it('delivers title, body, image and the notification data to the device', async () => {
    const target = port.target();
    expect(await port.provider.send(target, alert)).toBe('sent');
    const got = port.service.received.find((r) => r.token === target.token);
    expect(got).toMatchObject({
      title: alert.title,
      body: alert.body,
      imageUrl: alert.imageUrl,
      data: {
        notification_type: 'ACTIVITY_ALERT',
        activity_uuid: alert.data.notification_type === 'ACTIVITY_ALERT' ? alert.data.activity_uuid : '',
      },
    });
  });

  it('carries a chat answer with its message id', async () => {
    const target = port.target();
    expect(await port.provider.send(target, answer)).toBe('sent');
    expect(port.service.received.find((r) => r.token === target.token)?.data).toEqual({
      notification_type: 'CHAT_MESSAGE',
      chat_message_id: 'a1b2c3d4-0000-4000-8000-000000000001',
    });
  });

  it('answers dead-token when the service says the token is gone', async () => {
    const target = port.target();
    port.service.dead.add(target.token);
    expect(await port.provider.send(target, alert)).toBe('dead-token');
  });

  it('throws a provider error when the service is unavailable, and keeps working after', async () => {
    const target = port.target();
    port.service.failing.add(target.token);
    const failure = await port.provider.send(target, alert).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PushProviderError);
    expect((failure as PushProviderError).status).toBe(503);
    port.service.failing.delete(target.token);
    expect(await port.provider.send(target, alert)).toBe('sent');
  });

  it('answers dead-token for a token that can never be valid, without calling the service', async () => {
    const before = port.service.received.length;
    const target = { ...port.target(), token: 'not a token / ../../x' };
    // FCM tokens are opaque: FCM itself says it is unregistered.
    if (target.platform === 'android') port.service.dead.add(target.token);
    expect(await port.provider.send(target, alert)).toBe('dead-token');
    expect(port.service.received.length).toBe(before);
  });
});

describe('Web Push specifics', () => {
  let port: Awaited<ReturnType<typeof webPushPort>>;
  beforeAll(async () => {
    port = await webPushPort();
  });
  afterAll(async () => port.close());

  it('signs with VAPID for the push service origin and encrypts the payload to the subscription (aes128gcm)', async () => {
    const target = port.target();
    await port.provider.send(target, alert);
    const got = port.service.received.find((r) => r.token === target.token)!;
    // The fake verified the ES256 signature with the VAPID public key and decrypted the body; here the rest.
    expect(got.claims.aud).toBe(port.service.origin);
    expect(got.claims.sub).toBe('mailto:ops@homesitter.test');
    expect(got.claims.exp).toBeGreaterThan(Date.now() / 1000);
    expect(got.headers['content-encoding']).toBe('aes128gcm');
    expect(got.headers.urgency).toBe('high');
    expect(Number(got.headers.ttl)).toBe(4 * 3600);
    expect(got.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(port.service.payloads.find((p) => p.token === target.token)?.payload).toEqual({
      title: alert.title,
      body: alert.body,
      image: alert.imageUrl,
      tag: alert.collapseKey,
      lang: 'en',
      data: alert.data,
    });
  });

  it('sends chat answers at normal urgency', async () => {
    const target = port.target();
    await port.provider.send(target, answer);
    expect(port.service.received.find((r) => r.token === target.token)?.headers.urgency).toBe('normal');
  });
});

describe('FCM specifics', () => {
  let port: Awaited<ReturnType<typeof fcmPort>>;
  beforeAll(async () => {
    port = await fcmPort();
  });
  afterAll(async () => port.close());

  it('signs in once with the service account and reuses the access token', async () => {
    const before = port.service.tokenExchanges();
    await Promise.all([port.provider.send(port.target(), alert), port.provider.send(port.target(), alert)]);
    await port.provider.send(port.target(), answer);
    expect(port.service.tokenExchanges() - before).toBeLessThanOrEqual(1);
    expect(port.service.tokenExchanges()).toBe(1);
  });

  it('sends the HTTP v1 message: notification, string data, Android priority and collapse key', async () => {
    const target = port.target();
    await port.provider.send(target, alert);
    const got = port.service.received.find((r) => r.token === target.token)!;
    expect(JSON.parse(got.headers['x-message']!)).toEqual({
      token: target.token,
      notification: { title: alert.title, body: alert.body, image: alert.imageUrl },
      data: {
        notification_type: 'ACTIVITY_ALERT',
        activity_uuid: '6f1c8a52-3d4e-4f60-9a7b-1c2d3e4f5a6b',
        image_url: alert.imageUrl,
      },
      android: {
        priority: 'HIGH',
        ttl: '14400s',
        collapse_key: alert.collapseKey,
        notification: { tag: alert.collapseKey },
      },
    });
  });

  it('signs in again when FCM refuses the access token', async () => {
    port.service.revokeAccessTokens();
    const before = port.service.tokenExchanges();
    const target = port.target();
    await expect(port.provider.send(target, alert)).rejects.toMatchObject({ status: 401 });
    expect(await port.provider.send(target, alert)).toBe('sent');
    expect(port.service.tokenExchanges()).toBe(before + 1);
  });

  it('reports a service account the token endpoint refuses as a provider error', async () => {
    const other = await startFakeFcm();
    const provider = createFcmProvider({
      account: { ...other.account, clientEmail: 'someone-else@example.iam.gserviceaccount.com' },
      tokenUrl: other.tokenUrl,
      baseUrl: other.baseUrl,
      timeoutMs: 5000,
    });
    try {
      await expect(provider.send(port.target(), alert)).rejects.toBeInstanceOf(PushProviderError);
      expect(other.received).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});

describe('APNs specifics', () => {
  let port: Awaited<ReturnType<typeof apnsPort>>;
  beforeAll(async () => {
    port = await apnsPort();
  });
  afterAll(async () => port.close());

  it('sends over one HTTP/2 connection with an ES256 provider token, topic, push type and payload', async () => {
    const sessionsBefore = port.service.sessions();
    const first = port.target();
    await port.provider.send(first, alert);
    await port.provider.send(port.target(), answer);
    expect(port.service.sessions() - sessionsBefore).toBeLessThanOrEqual(1);
    const got = port.service.received.find((r) => r.token === first.token)!;
    const jwt = got.headers.authorization!.replace(/^bearer /, '');
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'ES256', kid: port.service.key.keyId });
    expect(decodeJwt(jwt).iss).toBe(port.service.key.teamId);
    expect(got.headers['apns-topic']).toBe('app.homesitter.ios');
    expect(got.headers['apns-push-type']).toBe('alert');
    expect(got.headers['apns-priority']).toBe('10');
    expect(got.headers['apns-collapse-id']).toBe(alert.collapseKey);
    expect(Number(got.headers['apns-expiration'])).toBeGreaterThan(Date.now() / 1000);
    expect(JSON.parse(got.headers['x-payload']!)).toEqual({
      aps: { alert: { title: alert.title, body: alert.body }, sound: 'default', 'mutable-content': 1 },
      notification_type: 'ACTIVITY_ALERT',
      activity_uuid: '6f1c8a52-3d4e-4f60-9a7b-1c2d3e4f5a6b',
      image_url: alert.imageUrl,
    });
  });

  it('reuses the provider token between sends', async () => {
    const a = port.target();
    const b = port.target();
    await port.provider.send(a, alert);
    await port.provider.send(b, alert);
    const auth = (t: PushTarget) =>
      port.service.received.find((r) => r.token === t.token)?.headers.authorization;
    expect(auth(a)).toBe(auth(b));
  });

  it('answers dead-token for BadDeviceToken', async () => {
    const target = port.target();
    port.service.badDeviceTokens.add(target.token);
    expect(await port.provider.send(target, alert)).toBe('dead-token');
  });

  it('opens a new connection after it was closed', async () => {
    await port.provider.send(port.target(), alert);
    await port.provider.close();
    expect(await port.provider.send(port.target(), alert)).toBe('sent');
  });

  it('fails with a provider error when APNs cannot be reached', async () => {
    const provider = createApnsProvider({
      ...port.service.key,
      baseUrl: 'https://127.0.0.1:1',
      timeoutMs: 2000,
    });
    await expect(provider.send(port.target(), alert)).rejects.toBeInstanceOf(PushProviderError);
    await provider.close();
  });
});
