/**
 * npx tsx bench/notifications.ts — the delivery layer's own cost: `notify()` for one user with three devices
 * (Web Push, FCM, APNs) and an MMS, each provider talking to a local server that speaks its API (the test
 * fakes), on an in-memory database. Prints latency p50/p95 one at a time, throughput with 20 at once, and
 * RSS. Network time to the real services is not in these figures.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  apnsDeviceToken,
  fcmRegistrationToken,
  startFakeApns,
  startFakeFcm,
  startFakeWebPush,
} from '../test/fake-push-services.js';
import { startFakeTwilio } from '../test/fake-twilio.js';
import { createTestDatabase } from '../test/database.js';
import { createApnsProvider } from '../src/adapters/push/apns.push.js';
import { createFcmProvider } from '../src/adapters/push/fcm.push.js';
import { loadVapidKeys } from '../src/adapters/push/vapid-keys.js';
import { createWebPushProvider } from '../src/adapters/push/webpush.push.js';
import { createTwilioSms } from '../src/adapters/sms/twilio.sms.js';
import { createNotificationsRepository } from '../src/modules/notifications/notifications.repository.js';
import { createNotificationsService } from '../src/modules/notifications/notifications.service.js';
import { createUsersRepository } from '../src/modules/users/users.repository.js';
import { createLogger } from '../src/platform/logger.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const CONCURRENT = 20;

const database = await createTestDatabase();
const vapid = loadVapidKeys({
  publicKey: undefined,
  privateKey: undefined,
  subject: 'mailto:bench@homesitter.test',
  dataDir: mkdtempSync(join(tmpdir(), 'hs-bench-')),
});
const [webPush, fcm, apns, twilio] = await Promise.all([
  startFakeWebPush(vapid.publicKey),
  startFakeFcm(),
  startFakeApns(),
  startFakeTwilio(),
]);
const push = {
  web: createWebPushProvider({ vapid, timeoutMs: 10_000, agent: webPush.agent }),
  android: createFcmProvider({
    account: fcm.account,
    tokenUrl: fcm.tokenUrl,
    baseUrl: fcm.baseUrl,
    timeoutMs: 10_000,
  }),
  ios: createApnsProvider({ ...apns.key, baseUrl: apns.baseUrl, ca: apns.ca, timeoutMs: 10_000 }),
};
const notifications = createNotificationsService({
  repo: createNotificationsRepository(database.db),
  push,
  sms: createTwilioSms({
    accountSid: twilio.accountSid,
    authToken: twilio.authToken,
    from: '+15005550006',
    baseUrl: twilio.baseUrl,
    timeoutMs: 10_000,
  }),
  log: createLogger('silent'),
  timeoutMs: 10_000,
  webPushPublicKey: vapid.publicKey,
});

const users = createUsersRepository(database.db);
const user = await users.insert({
  authSubject: 'bench',
  email: 'bench@example.com',
  phoneNumber: '+15551234567',
  remainingFreeEvents: 0,
});
if (!user) throw new Error('bench user not created');
for (const [platform, token] of [
  ['web', webPush.subscribe()],
  ['android', fcmRegistrationToken()],
  ['ios', apnsDeviceToken()],
] as const) {
  await createNotificationsRepository(database.db).upsertPushToken(user.id, {
    token,
    platform,
    isSandbox: false,
  });
}

const alert = () => ({
  kind: 'activity_alert' as const,
  activityUuid: randomUUID(),
  title: 'Front Door',
  body: 'Rose walked up to the Front Door at 3:12 PM.',
  thumbnailUrl: 'https://home.example.com/media/thumb.jpg?exp=1&sig=abc',
});

async function once(): Promise<number> {
  const start = performance.now();
  const result = await notifications.notify(user!.id, alert());
  if (result.pushed !== 3 || !result.sms) throw new Error(`unexpected result ${JSON.stringify(result)}`);
  return performance.now() - start;
}

for (let i = 0; i < 20; i += 1) await once();
const latencies: number[] = [];
for (let i = 0; i < RUNS; i += 1) latencies.push(await once());
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;

const start = performance.now();
let done = 0;
await Promise.all(
  Array.from({ length: CONCURRENT }, async () => {
    while (done < RUNS) {
      done += 1;
      await once();
    }
  }),
);
const seconds = (performance.now() - start) / 1000;

console.log(`notify(): 3 pushes (Web Push, FCM, APNs) + 1 MMS per call, ${RUNS} calls`);
console.log(`  one at a time: p50 ${pct(50).toFixed(1)} ms, p95 ${pct(95).toFixed(1)} ms`);
console.log(
  `  ${CONCURRENT} at a time: ${(done / seconds).toFixed(0)} notify/s (${((done * 4) / seconds).toFixed(0)} deliveries/s)`,
);
console.log(`  FCM token exchanges: ${fcm.tokenExchanges()}, APNs connections: ${apns.sessions()}`);
console.log(`  RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);

// The layer's own share: the same calls with providers that answer at once (database, fan-out, bookkeeping).
const instant = { kind: 'fcm' as const, send: async () => 'sent' as const, close: async () => {} };
const bare = createNotificationsService({
  repo: createNotificationsRepository(database.db),
  push: { web: instant, android: instant, ios: instant },
  sms: { kind: 'log', send: async () => {} },
  log: createLogger('silent'),
  timeoutMs: 10_000,
  webPushPublicKey: vapid.publicKey,
});
const bareStart = performance.now();
for (let i = 0; i < RUNS; i += 1) await bare.notify(user.id, alert());
console.log(
  `  with instant providers: ${((performance.now() - bareStart) / RUNS).toFixed(2)} ms per notify()`,
);

await Promise.all(Object.values(push).map((p) => p.close()));
await Promise.all([webPush.close(), fcm.close(), apns.close(), twilio.close()]);
await database.close();
