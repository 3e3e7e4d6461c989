import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apnsDeviceToken,
  fcmRegistrationToken,
  startFakeApns,
  startFakeFcm,
  startFakeWebPush,
  type FakeApns,
  type FakeFcm,
  type FakeWebPush,
} from '../../../test/fake-push-services.js';
import { startFakeTwilio } from '../../../test/fake-twilio.js';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { createApnsProvider } from '../../adapters/push/apns.push.js';
import { createFcmProvider } from '../../adapters/push/fcm.push.js';
import {
  PushProviderError,
  type PushMessage,
  type PushProvider,
  type PushTarget,
} from '../../adapters/push/push.js';
import { loadVapidKeys } from '../../adapters/push/vapid-keys.js';
import { createWebPushProvider } from '../../adapters/push/webpush.push.js';
import type { SmsSender, TextMessage } from '../../adapters/sms/sms.js';
import { createTwilioSms, SmsProviderError } from '../../adapters/sms/twilio.sms.js';
import { createLogger } from '../../platform/logger.js';
import { createNotificationsRepository } from './notifications.repository.js';
import {
  createNotificationsService,
  retryJobId,
  type ChannelRetry,
  type Notification,
  type NotificationsService,
  type PushProviders,
} from './notifications.service.js';

// Medium tier: the service and its repository on a migrated database, users made through the API, and each
// push and SMS provider talking to a local server that speaks its real API.

let t: TestApp;
let webPush: FakeWebPush;
let fcm: FakeFcm;
let apns: FakeApns;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let providers: Required<PushProviders>;
let twilioSms: SmsSender;
const log = createLogger('silent');

beforeAll(async () => {
  t = await createTestApp();
  const vapid = loadVapidKeys({
    publicKey: undefined,
    privateKey: undefined,
    subject: 'mailto:ops@homesitter.test',
    dataDir: t.deps.config.DATA_DIR,
  });
  [webPush, fcm, apns, twilio] = await Promise.all([
    startFakeWebPush(vapid.publicKey),
    startFakeFcm(),
    startFakeApns(),
    startFakeTwilio(),
  ]);
  providers = {
    web: createWebPushProvider({ vapid, timeoutMs: 5000, agent: webPush.agent }),
    android: createFcmProvider({
      account: fcm.account,
      tokenUrl: fcm.tokenUrl,
      baseUrl: fcm.baseUrl,
      timeoutMs: 5000,
    }),
    ios: createApnsProvider({ ...apns.key, baseUrl: apns.baseUrl, ca: apns.ca, timeoutMs: 5000 }),
  };
  twilioSms = createTwilioSms({
    accountSid: twilio.accountSid,
    authToken: twilio.authToken,
    from: '+15005550006',
    baseUrl: twilio.baseUrl,
    timeoutMs: 5000,
  });
});
afterAll(async () => {
  await Promise.all(Object.values(providers).map((p) => p.close()));
  await Promise.all([webPush.close(), fcm.close(), apns.close(), twilio.close()]);
  await t.close();
});

function service(
  overrides: {
    push?: PushProviders;
    sms?: SmsSender;
    timeoutMs?: number;
    retry?: (job: ChannelRetry) => Promise<void>;
    alertWanted?: (userId: string, activityId: string) => Promise<boolean>;
  } = {},
) {
  return createNotificationsService({
    retry: overrides.retry,
    alertWanted: overrides.alertWanted,
    repo: createNotificationsRepository(t.database.db),
    push: overrides.push ?? providers,
    sms: overrides.sms ?? twilioSms,
    log,
    timeoutMs: overrides.timeoutMs ?? 5000,
    webPushPublicKey: 'unused',
    appUrl: 'https://home.example.com',
  });
}

interface Person {
  user: TestUser;
  id: string;
  /** Device tokens by platform, registered and enabled. */
  tokens: { web: string; android: string; ios: string };
}

const call = (who: TestUser, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: who.auth, payload });

/** A user with a phone number (from sign-up) and one device per platform. */
async function person(): Promise<Person> {
  const user = await signUp(t);
  const profile = await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: user.auth });
  const id = profile.json().data.user_uuid as string;
  const tokens = { web: webPush.subscribe(), android: fcmRegistrationToken(), ios: apnsDeviceToken() };
  for (const platform of ['android', 'ios'] as const) {
    const res = await call(user, '/api/users/push-notification-token', { token: tokens[platform], platform });
    expect(res.statusCode).toBe(200);
  }
  // The API only takes push services on public https hosts; the local one is registered directly.
  await createNotificationsRepository(t.database.db).upsertPushToken(id, {
    token: tokens.web,
    platform: 'web',
    isSandbox: false,
  });
  return { user, id, tokens };
}

const enabledTokens = async (userId: string) =>
  (
    await t.database.query<{ token: string }>(
      'select token from push_tokens where user_id = $1 and enabled order by token',
      [userId],
    )
  ).map((r) => r.token);

const alert = (activityUuid = crypto.randomUUID()): Notification => ({
  kind: 'activity_alert',
  activityUuid,
  title: 'Front Door',
  body: 'Rose walked up to the Front Door at 3:12 PM.',
  thumbnailUrl: `https://home.example.com/media/${activityUuid}.jpg?exp=1&sig=abc`,
});

const receivedBy = (tokens: string[]) =>
  [...webPush.received, ...fcm.received, ...apns.received].filter((r) => tokens.includes(r.token));
const textsTo = (phone: string) => twilio.received.filter((r) => r.To === phone);

describe('an activity alert', () => {
  it('pushes to every enabled device on its own platform and texts an MMS with the thumbnail', async () => {
    const rose = await person();
    const n = alert();
    expect(await service().notify(rose.id, n)).toEqual({ pushed: 3, sms: true });
    const tokens = Object.values(rose.tokens);
    expect(webPush.received.filter((r) => r.token === rose.tokens.web)).toHaveLength(1);
    expect(fcm.received.filter((r) => r.token === rose.tokens.android)).toHaveLength(1);
    expect(apns.received.filter((r) => r.token === rose.tokens.ios)).toHaveLength(1);
    for (const got of receivedBy(tokens)) {
      expect(got).toMatchObject({
        title: 'Front Door',
        body: 'Rose walked up to the Front Door at 3:12 PM.',
        imageUrl: n.kind === 'activity_alert' ? n.thumbnailUrl : '',
        data: {
          notification_type: 'ACTIVITY_ALERT',
          activity_uuid: n.kind === 'activity_alert' ? n.activityUuid : '',
        },
      });
    }
    expect(textsTo('+15551234567').at(-1)).toEqual({
      To: '+15551234567',
      From: '+15005550006',
      Body: 'Front Door: Rose walked up to the Front Door at 3:12 PM.\nhttps://home.example.com/chat',
      MediaUrl: n.kind === 'activity_alert' ? n.thumbnailUrl : '',
    });
  });

  it("never reaches another user's devices", async () => {
    const [rose, otto] = await Promise.all([person(), person()]);
    await service().notify(rose.id, alert());
    expect(receivedBy(Object.values(otto.tokens))).toHaveLength(0);
    expect(receivedBy(Object.values(rose.tokens))).toHaveLength(3);
  });

  it('is not pushed when push is off, but still texted', async () => {
    const rose = await person();
    await call(rose.user, '/api/users/notification-preferences', {
      notification_preferences: { push_enabled: false, sms_mms_enabled: true },
    });
    const before = textsTo('+15551234567').length;
    expect(await service().notify(rose.id, alert())).toEqual({ pushed: 0, sms: true });
    expect(receivedBy(Object.values(rose.tokens))).toHaveLength(0);
    expect(textsTo('+15551234567')).toHaveLength(before + 1);
  });

  it('is not texted when SMS/MMS is off, but still pushed', async () => {
    const rose = await person();
    await call(rose.user, '/api/users/notification-preferences', {
      notification_preferences: { push_enabled: true, sms_mms_enabled: false },
    });
    const before = twilio.received.length;
    expect(await service().notify(rose.id, alert())).toEqual({ pushed: 3, sms: false });
    expect(twilio.received).toHaveLength(before);
  });

  it('goes nowhere when notifications are off altogether', async () => {
    const rose = await person();
    await call(rose.user, '/api/users/notifications', { notifications_status: 'ALL_DISABLED' });
    const before = twilio.received.length;
    expect(await service().notify(rose.id, alert())).toEqual({ pushed: 0, sms: false });
    expect(receivedBy(Object.values(rose.tokens))).toHaveLength(0);
    expect(twilio.received).toHaveLength(before);
  });

  it('follows notifications_status when no preferences were ever saved', async () => {
    const rose = await person();
    await t.database.query(
      "update users set notification_preferences = null, notifications_status = 'ALL_ENABLED' where id = $1",
      [rose.id],
    );
    expect(await service().notify(rose.id, alert())).toEqual({ pushed: 3, sms: true });
  });

  it('is not texted to a user without a phone number', async () => {
    const rose = await person();
    await call(rose.user, '/api/users/personal-info', { phone_number: null });
    const before = twilio.received.length;
    expect(await service().notify(rose.id, alert())).toEqual({ pushed: 3, sms: false });
    expect(twilio.received).toHaveLength(before);
  });

  it('skips disabled tokens and platforms without a configured provider', async () => {
    const rose = await person();
    await call(rose.user, '/api/users/push-notification-token/disable', {
      token: rose.tokens.android,
      platform: 'android',
    });
    expect(await service({ push: { web: providers.web } }).notify(rose.id, alert())).toEqual({
      pushed: 1,
      sms: true,
    });
    expect(receivedBy([rose.tokens.android, rose.tokens.ios])).toHaveLength(0);
  });
});

describe('a chat answer', () => {
  it('is pushed with its message id and never texted', async () => {
    const rose = await person();
    const messageUuid = crypto.randomUUID();
    const before = twilio.received.length;
    const result = await service().notify(rose.id, {
      kind: 'chat_message',
      messageUuid,
      title: 'Homesitter',
      body: 'Nobody came by today.',
    });
    expect(result).toEqual({ pushed: 3, sms: false });
    expect(twilio.received).toHaveLength(before);
    for (const got of receivedBy(Object.values(rose.tokens))) {
      expect(got.data).toEqual({ notification_type: 'CHAT_MESSAGE', chat_message_id: messageUuid });
    }
  });
});

describe('dead tokens', () => {
  it.each(['web', 'android', 'ios'] as const)(
    'are disabled when %s push says the device is gone',
    async (platform) => {
      const rose = await person();
      const service_ = platform === 'web' ? webPush : platform === 'android' ? fcm : apns;
      service_.dead.add(rose.tokens[platform]);
      expect(await service().notify(rose.id, alert())).toEqual({ pushed: 2, sms: true });
      const stillEnabled = await enabledTokens(rose.id);
      expect(stillEnabled).not.toContain(rose.tokens[platform]);
      expect(stillEnabled).toHaveLength(2);
    },
  );

  it('stay enabled after a transient failure', async () => {
    const rose = await person();
    fcm.failing.add(rose.tokens.android);
    apns.failing.add(rose.tokens.ios);
    webPush.failing.add(rose.tokens.web);
    expect(await service().notify(rose.id, alert())).toEqual({ pushed: 0, sms: true });
    expect(await enabledTokens(rose.id)).toHaveLength(3);
  });

  it('are left alone when the device registered the same token again meanwhile', async () => {
    const rose = await person();
    const reRegistering: PushProvider = {
      kind: 'fcm',
      async send(target: PushTarget) {
        await call(rose.user, '/api/users/push-notification-token', {
          token: target.token,
          platform: 'android',
        });
        return 'dead-token';
      },
      async close() {},
    };
    await service({ push: { android: reRegistering } }).notify(rose.id, alert());
    expect(await enabledTokens(rose.id)).toContain(rose.tokens.android);
  });
});

describe('failures', () => {
  const hanging: PushProvider = {
    kind: 'apns',
    send: () => new Promise<never>(() => undefined),
    async close() {},
  };
  const throwing: PushProvider = {
    kind: 'webpush',
    send: async () => {
      throw new Error('socket hang up');
    },
    async close() {},
  };
  // Answers at once, so only the hanging provider can meet the short timeout, however busy the machine.
  const answering: PushProvider = {
    kind: 'fcm',
    send: async () => 'sent',
    async close() {},
  };
  const brokenSms: SmsSender = {
    kind: 'twilio',
    send: async (_m: TextMessage) => {
      throw new Error('twilio down');
    },
  };

  it('never throw out of notify: a provider that hangs is given up on, one that throws is logged', async () => {
    const rose = await person();
    const notifications = service({
      push: { ios: hanging, web: throwing, android: answering },
      sms: brokenSms,
      timeoutMs: 200,
    });
    expect(await notifications.notify(rose.id, alert())).toEqual({ pushed: 1, sms: false });
    expect(await enabledTokens(rose.id)).toHaveLength(3);
  });

  it('an unknown or malformed user id sends nothing', async () => {
    const notifications: NotificationsService = service();
    expect(await notifications.notify(crypto.randomUUID(), alert())).toEqual({ pushed: 0, sms: false });
    expect(await notifications.notify("x' or 1=1 --", alert())).toEqual({ pushed: 0, sms: false });
  });
});

describe('message size', () => {
  it('keeps long titles and bodies inside push payload limits', async () => {
    const rose = await person();
    const seen: PushMessage[] = [];
    const recording: PushProvider = {
      kind: 'fcm',
      send: async (_t, m) => {
        seen.push(m);
        return 'sent';
      },
      async close() {},
    };
    await service({ push: { android: recording } }).notify(rose.id, {
      ...alert(),
      title: 'T'.repeat(500),
      body: 'B'.repeat(5000),
    });
    expect([...seen[0]!.title]).toHaveLength(120);
    expect([...seen[0]!.body]).toHaveLength(1000);
    expect(seen[0]!.body.endsWith('…')).toBe(true);
  });
});

describe('a failed channel of an alert', () => {
  const failing = (status?: number): PushProvider => ({
    kind: 'fcm',
    send: async () => {
      throw new PushProviderError('fcm', 'FCM refused the message', status);
    },
    async close() {},
  });
  const smsFailing = (status?: number): SmsSender => ({
    kind: 'twilio',
    send: async () => {
      throw new SmsProviderError('twilio refused the text', status);
    },
  });
  const counting = () => {
    const sent: PushTarget[] = [];
    const provider: PushProvider = {
      kind: 'fcm',
      send: async (target) => {
        sent.push(target);
        return 'sent';
      },
      async close() {},
    };
    return { sent, provider };
  };

  async function queued(push: PushProvider, sms: SmsSender, timeoutMs = 5000) {
    const rose = await person();
    const jobs: ChannelRetry[] = [];
    const notifications = service({
      push: { android: push },
      sms,
      timeoutMs,
      retry: async (job) => void jobs.push(job),
    });
    await notifications.notify(rose.id, alert());
    // A timed-out call is queued when it ends, a moment later.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { rose, jobs };
  }

  it('is queued to be tried again when the provider is down (5xx, throttled, no answer)', async () => {
    for (const status of [503, 429, undefined]) {
      const { rose, jobs } = await queued(failing(status), smsFailing(status));
      expect(jobs.map((j) => j.channel).sort()).toEqual(['push', 'sms']);
      const push = jobs.find((j) => j.channel === 'push')!;
      expect(push.tokenId).toBeDefined();
      expect(push.userId).toBe(rose.id);
      expect(jobs.find((j) => j.channel === 'sms')!.phoneHash).toHaveLength(64);
    }
  });

  it('is not queued for a refusal that will not change (an invalid number, a bad request)', async () => {
    const { jobs } = await queued(failing(400), smsFailing(400));
    expect(jobs).toEqual([]);
  });

  it('is queued after a timeout only when the call then fails, never when it went out late', async () => {
    const late = (outcome: 'sent' | 'fail'): PushProvider => ({
      kind: 'fcm',
      send: () =>
        new Promise((resolve, reject) =>
          setTimeout(
            () => (outcome === 'sent' ? resolve('sent') : reject(new PushProviderError('fcm', 'aborted'))),
            30,
          ),
        ),
      async close() {},
    });
    const ok: SmsSender = { kind: 'twilio', send: async () => undefined };
    expect((await queued(late('sent'), ok, 5)).jobs).toEqual([]);
    expect((await queued(late('fail'), ok, 5)).jobs.map((j) => j.channel)).toEqual(['push']);
  });

  it('has one job id per alert, channel and device or number', () => {
    const job = { activityId: crypto.randomUUID(), channel: 'push' as const, tokenId: crypto.randomUUID() };
    expect(retryJobId(job)).toBe(retryJobId({ ...job }));
    expect(retryJobId(job)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(retryJobId({ ...job, tokenId: crypto.randomUUID() })).not.toBe(retryJobId(job));
    expect(retryJobId({ ...job, channel: 'sms' })).not.toBe(retryJobId(job));
  });

  it('is sent by the retry as the settings are now, and throws while the provider is still down', async () => {
    const { rose, jobs } = await queued(failing(503), smsFailing(503));
    const pushJob = jobs.find((j) => j.channel === 'push')!;
    const smsJob = jobs.find((j) => j.channel === 'sms')!;
    // Still down: the job fails, to be retried with backoff.
    await expect(
      service({ push: { android: failing(503) }, sms: smsFailing(502) }).retryChannel!(pushJob),
    ).rejects.toThrow();
    await expect(service({ sms: smsFailing(502) }).retryChannel!(smsJob)).rejects.toThrow();
    // Back: each goes out once, to the device and number it was for.
    const { sent, provider } = counting();
    await service({ push: { android: provider } }).retryChannel!(pushJob);
    expect(sent.map((x) => x.token)).toEqual([rose.tokens.android]);
    const before = textsTo('+15551234567').length;
    await service().retryChannel!(smsJob);
    expect(textsTo('+15551234567').length).toBe(before + 1);
  });

  it('is dropped when the alert is no longer wanted, stale, refused for good, or the settings changed', async () => {
    const { rose, jobs } = await queued(failing(503), smsFailing(503));
    const pushJob = jobs.find((j) => j.channel === 'push')!;
    const smsJob = jobs.find((j) => j.channel === 'sms')!;
    const { sent, provider } = counting();
    const push = { android: provider };
    // The camera was muted (or made private) meanwhile.
    await service({ push, alertWanted: async () => false }).retryChannel!(pushJob);
    // Older than the retry window.
    await service({ push }).retryChannel!({
      ...pushJob,
      alertedAt: new Date(Date.now() - 2 * 3600_000).toISOString(),
    });
    // A refusal for good ends the job without an error.
    await service({ push: { android: failing(400) } }).retryChannel!(pushJob);
    // Push turned off.
    await call(rose.user, '/api/users/notification-preferences', {
      notification_preferences: { push_enabled: false, sms_mms_enabled: true },
    });
    await service({ push }).retryChannel!(pushJob);
    expect(sent).toEqual([]);
    // The number changed: the text was for the old one.
    const before = twilio.received.length;
    await service().retryChannel!({ ...smsJob, phoneHash: 'f'.repeat(64) });
    expect(twilio.received.length).toBe(before);
  });
});
