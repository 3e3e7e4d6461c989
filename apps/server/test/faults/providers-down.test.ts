import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VisionEngine } from '../../src/adapters/vision/vision.js';
import { person } from '../../src/modules/analysis/analysis.test-support.js';
import { smallJpeg } from '../../src/modules/ingest/ingest.test-support.js';
import { createTestApp, signUp, type TestApp, type TestUser } from '../app.js';
import { fcmRegistrationToken, startFakeFcm, type FakeFcm } from '../fake-push-services.js';
import { startFakeLlm, type FakeLlmServer } from '../fake-llm.js';
import { startFakeTwilio } from '../fake-twilio.js';
import { startFaultyProxy, until } from './fault-support.js';

// Providers down while a camera sees someone: the language model slow or failing, the push provider down or
// hanging, the SMS provider down. The alert still reaches the owner: the chat message always, and by push
// when SMS fails and by SMS when push fails, each provider call bounded by NOTIFY_TIMEOUT_MS and the model by
// LLM_TIMEOUT_MS.

const NOTIFY_TIMEOUT_MS = 1_000;
const LLM_TIMEOUT_MS = 1_000;
/** A failed push or text is tried again after this (then about twice as long each time). */
const RETRY_DELAY_SECONDS = 1;

const seesPerson: VisionEngine = {
  kind: 'local',
  analyse: async () => ({ width: 640, height: 360, objects: [person()], faces: [] }),
  embedFaces: async () => [],
  close: async () => undefined,
};

let t: TestApp;
let fcm: FakeFcm;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let llm: FakeLlmServer;
let sms: Awaited<ReturnType<typeof startFaultyProxy>>;
let push: Awaited<ReturnType<typeof startFaultyProxy>>;
let ingestUrl: string;

beforeAll(async () => {
  [fcm, twilio, llm] = await Promise.all([startFakeFcm(), startFakeTwilio(), startFakeLlm()]);
  [sms, push] = await Promise.all([startFaultyProxy(twilio.baseUrl), startFaultyProxy(fcm.baseUrl)]);
  t = await createTestApp({
    vision: seesPerson,
    env: {
      NOTIFY_TIMEOUT_MS: String(NOTIFY_TIMEOUT_MS),
      NOTIFY_RETRY_DELAY_SECONDS: String(RETRY_DELAY_SECONDS),
      LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
      LLM_BASE_URL: llm.baseUrl,
      FCM_PROJECT_ID: fcm.projectId,
      FCM_CLIENT_EMAIL: fcm.account.clientEmail,
      FCM_PRIVATE_KEY: fcm.account.privateKey,
      FCM_TOKEN_URL: fcm.tokenUrl,
      FCM_BASE_URL: push.url,
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: '+15005550006',
      TWILIO_BASE_URL: sms.url,
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  ingestUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/ingest/events`;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([sms?.close(), push?.close()]);
  await Promise.all([fcm?.close(), twilio?.close(), llm?.close()]);
});

interface Owner {
  user: TestUser;
  id: string;
  token: string;
  login: { username: string; password: string };
}

/** A user with an Android device registered for push and a phone number for texts. */
async function owner(): Promise<Owner> {
  const user = await signUp(t);
  const token = fcmRegistrationToken();
  const reg = await t.app.inject({
    method: 'POST',
    url: '/api/users/push-notification-token',
    headers: user.auth,
    payload: { token, platform: 'android' },
  });
  expect(reg.statusCode).toBe(200);
  const profile = await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: user.auth });
  const credentials = await t.app.inject({
    method: 'GET',
    url: '/api/users/camera-email-credentials',
    headers: user.auth,
  });
  return {
    user,
    id: profile.json<{ data: { user_uuid: string } }>().data.user_uuid,
    token,
    login: credentials.json<{ data: Owner['login'] }>().data,
  };
}

/** The camera sends a snapshot by HTTP; answers when it was acknowledged. */
async function upload(o: Owner): Promise<number> {
  const body = new FormData();
  body.append('camera_name', 'Front Door');
  body.append('file', new Blob([new Uint8Array(await smallJpeg())]), 'motion.jpg');
  const res = await fetch(ingestUrl, {
    method: 'POST',
    body,
    headers: {
      authorization: `Basic ${Buffer.from(`${o.login.username}:${o.login.password}`).toString('base64')}`,
    },
  });
  expect(res.status, await res.text()).toBe(202);
  return performance.now();
}

const alertMessage = (o: Owner) =>
  until(async () => {
    const rows = await t.database.query<{ id: string; text: string }>(
      `SELECT m.id, m.text FROM chat_messages m JOIN activities a ON a.alert_message_id = m.id
       WHERE m.user_id = $1 AND m.role = 'agent'`,
      [o.id],
    );
    return rows[0];
  });
const pushed = (o: Owner) => until(() => fcm.received.find((p) => p.token === o.token));
/**
 * Texts of the owner's alerts: by the picture they carry (its signed URL names the owner's media), since
 * every owner here has the same phone number and an earlier test's retried text may arrive meanwhile.
 */
const textsOf = (o: Owner) => twilio.received.filter((r) => r.MediaUrl?.includes(o.id));
const texted = (o: Owner) => () => until(() => textsOf(o)[0]);

/** Prints and checks the owner's figures: one alert message (lost 0, duplicated 0) and what each channel got. */
async function report(label: string, o: Owner, ms: number): Promise<void> {
  const [row] = await t.database.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM chat_messages m JOIN activities a ON a.alert_message_id = m.id
     WHERE m.user_id = $1`,
    [o.id],
  );
  const n = row?.n ?? 0;
  const pushes = fcm.received.filter((p) => p.token === o.token).length;
  console.log(
    `[faults] ${label}: alert out ${Math.round(ms)} ms after the 202; chat messages ${n}, pushes ${pushes}; ` +
      `lost ${n === 0 ? 1 : 0}, duplicated ${Math.max(0, n - 1) + Math.max(0, pushes - 1)}`,
  );
  expect(n).toBe(1);
  expect(pushes).toBeLessThanOrEqual(1);
}

describe('an alert while providers are down', () => {
  it('goes out by chat, push and SMS with the composed sentence while the language model hangs', async () => {
    llm.reply = () => ({ hang: true });
    const o = await owner();
    const nextText = texted(o);
    const acked = await upload(o);
    const message = await alertMessage(o);
    await Promise.all([pushed(o), nextText()]);
    await report('LLM hanging', o, performance.now() - acked);
    expect(message.text).toMatch(/Front Door|person|someone/i);
  });

  it('goes out by chat, push and SMS while the language model answers 500', async () => {
    llm.reply = () => ({ status: 500, body: { error: { message: 'upstream down' } } });
    const o = await owner();
    const nextText = texted(o);
    const acked = await upload(o);
    await alertMessage(o);
    await Promise.all([pushed(o), nextText()]);
    await report('LLM answering 500', o, performance.now() - acked);
    llm.reply = () => ({ text: 'ok' });
  });

  it('goes out by chat and SMS while the push provider answers 503', async () => {
    push.state.mode = 'error';
    try {
      const o = await owner();
      const calls = push.state.calls;
      const nextText = texted(o);
      const acked = await upload(o);
      await alertMessage(o);
      await nextText();
      await report('push provider down (503)', o, performance.now() - acked);
      // The push was tried (and refused), not silently skipped.
      await until(() => (push.state.calls > calls ? true : undefined));
      expect(fcm.received.find((p) => p.token === o.token)).toBeUndefined();
    } finally {
      push.state.mode = 'pass';
    }
  });

  it('goes out by chat and SMS while the push provider hangs, without waiting past NOTIFY_TIMEOUT_MS', async () => {
    push.state.mode = 'hang';
    try {
      const o = await owner();
      const nextText = texted(o);
      const acked = await upload(o);
      await alertMessage(o);
      await nextText();
      await report('push provider hanging', o, performance.now() - acked);
    } finally {
      push.state.mode = 'pass';
    }
  });

  it('goes out by chat and push while the SMS provider answers 503', async () => {
    sms.state.mode = 'error';
    try {
      const o = await owner();
      const calls = sms.state.calls;
      const acked = await upload(o);
      await alertMessage(o);
      await pushed(o);
      await report('SMS provider down (503)', o, performance.now() - acked);
      await until(() => (sms.state.calls > calls ? true : undefined));
      expect(textsOf(o)).toEqual([]);
    } finally {
      sms.state.mode = 'pass';
    }
  });

  it('tries a failed push and SMS again by a job once the providers are back, each delivered exactly once', async () => {
    const o = await owner();
    const pushCalls = push.state.calls;
    const smsCalls = sms.state.calls;
    push.state.mode = 'error';
    sms.state.mode = 'error';
    let back = 0;
    try {
      await upload(o);
      await alertMessage(o);
      // The first try of each channel fails, and so does at least one retry by the job while they stay down.
      await until(() =>
        push.state.calls >= pushCalls + 2 && sms.state.calls >= smsCalls + 2 ? true : undefined,
      );
      expect(fcm.received.find((p) => p.token === o.token)).toBeUndefined();
      expect(textsOf(o)).toEqual([]);
    } finally {
      push.state.mode = 'pass';
      sms.state.mode = 'pass';
      back = performance.now();
    }
    await Promise.all([pushed(o), texted(o)()]);
    const deliveredMs = performance.now() - back;
    // Past two more retry delays: nothing goes out a second time.
    await new Promise((resolve) => setTimeout(resolve, 3 * RETRY_DELAY_SECONDS * 1000));
    const pushes = fcm.received.filter((p) => p.token === o.token).length;
    const texts = textsOf(o).length;
    console.log(
      `[faults] push and SMS providers down, then back: delivered ${Math.round(deliveredMs)} ms after they came ` +
        `back; tries while down ${push.state.calls - pushCalls} push, ${sms.state.calls - smsCalls} SMS; ` +
        `pushes ${pushes}, texts ${texts}; lost ${(pushes === 0 ? 1 : 0) + (texts === 0 ? 1 : 0)}, ` +
        `duplicated ${Math.max(0, pushes - 1) + Math.max(0, texts - 1)}`,
    );
    expect(pushes).toBe(1);
    expect(texts).toBe(1);
  });

  it('does not try a failed channel again once the camera is muted', async () => {
    const o = await owner();
    const pushCalls = push.state.calls;
    push.state.mode = 'error';
    sms.state.mode = 'error';
    try {
      await upload(o);
      await alertMessage(o);
      await until(() => (push.state.calls > pushCalls ? true : undefined));
      const mute = await t.app.inject({
        method: 'PUT',
        url: `/api/cameras/${encodeURIComponent('Front Door')}/settings`,
        headers: o.user.auth,
        payload: { is_muted: true },
      });
      expect(mute.statusCode, mute.body).toBe(200);
    } finally {
      push.state.mode = 'pass';
      sms.state.mode = 'pass';
    }
    // Both retries ran, and ended without sending (the camera is muted now).
    await until(async () => {
      const rows = await t.database.query<{ state: string }>(
        `SELECT state FROM pgboss.job WHERE name = 'notifications.retry-channel' AND data->>'userId' = $1`,
        [o.id],
      );
      return rows.length === 2 && rows.every((r) => r.state === 'completed') ? true : undefined;
    }, 200);
    expect(fcm.received.find((p) => p.token === o.token)).toBeUndefined();
    expect(textsOf(o)).toEqual([]);
  });
});
