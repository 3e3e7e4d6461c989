import type { Activity } from '@homesitter/contract';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { stateReached } from '../../../test/calls.js';
import { sdmDevice, sdmEvent, startFakeGoogle, type FakeGoogle } from '../../../test/fake-google.js';
import { jpegWithLocation } from '../../../test/images.js';
import { linkNest } from '../../../test/nest-link.js';

const P = 'test-project';
let t: TestApp;
let google: FakeGoogle;
let who: TestUser;

beforeAll(async () => {
  google = await startFakeGoogle(P);
  google.state.image = await jpegWithLocation(640, 480);
  t = await createTestApp({
    env: { ...google.env, NEST_PUBSUB_SUBSCRIPTION: google.subscription },
    chatAnswers: false,
    analysis: false,
  });
  google.state.devices = [sdmDevice(P, 'door', { type: 'DOORBELL', room: 'Front Door' })];
  who = await signUp(t);
  await linkNest(t, who);
});
afterAll(async () => {
  await t.close();
  await google.close();
});

const CAMERA = 'Front Door Doorbell';
const activities = async () =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/users/activities?camera_name=${encodeURIComponent(CAMERA)}&page=1&pageSize=50`,
      headers: who.auth,
    })
  ).json<{ data: Activity[] }>().data;
const acked = (messageId: string) =>
  stateReached(
    async () => google.state.acknowledged,
    (ids) => ids.includes(messageId),
  );

const event = (kind: string, sessionId: string, eventId: string, at = new Date()) =>
  sdmEvent(P, 'door', kind, { sessionId, eventId }, at);

describe('Nest events from Pub/Sub', () => {
  it('makes one activity per event session, with its GenerateImage picture, acknowledged after', async () => {
    await acked(google.publish(event('sdm.devices.events.CameraPerson.Person', 's1', 'e1')));
    const made = await stateReached(activities, (list) => list.length === 1);
    expect(made).toHaveLength(1);
    expect(google.state.imageFetches).toBe(1);

    // The chime of the same session, and the same message delivered twice: no second activity.
    const chime = event('sdm.devices.events.DoorbellChime.Chime', 's1', 'e2');
    await acked(google.publish(chime));
    await acked(google.publish(chime));
    expect(await activities()).toHaveLength(1);
    expect(google.state.imageFetches).toBe(1);
  });

  it('leaves a message it could not take for Pub/Sub to deliver again, then takes it once', async () => {
    google.state.failImage = true;
    const calls = google.state.generateImageCalls;
    // Later than the first session's grouping window (10 s), so it is an activity of its own.
    const later = new Date(Date.now() + 20_000);
    const id = google.publish(event('sdm.devices.events.CameraMotion.Motion', 's2', 'e3', later));
    await stateReached(
      async () => google.state.generateImageCalls,
      (n) => n > calls,
    );
    expect(google.state.acknowledged).not.toContain(id);
    google.state.failImage = false;
    google.redeliverOutstanding();
    await acked(id);
    expect(await stateReached(activities, (list) => list.length === 2)).toHaveLength(2);
  });

  it('fetches nothing for a private camera and nothing for an event older than its picture', async () => {
    const fetches = google.state.imageFetches;
    const calls = google.state.generateImageCalls;
    const late = new Date(Date.now() - 5 * 60_000);
    await acked(google.publish(event('sdm.devices.events.CameraSound.Sound', 's3', 'e4', late)));
    // The late one is an activity without a picture (nest.late.test.ts follows it to its alert).
    const made = await stateReached(activities, (list) => list.length === 3);
    expect(made.find((a) => a.media_kind === 'none')).toEqual(
      expect.objectContaining({ thumbnail_image_url: null, image_urls: [] }),
    );

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/update-camera',
      headers: who.auth,
      payload: { name: CAMERA, settings: { is_private_mode_enabled: true } },
    });
    expect(res.statusCode, res.body).toBe(200);
    await acked(google.publish(event('sdm.devices.events.CameraPerson.Person', 's4', 'e5')));
    expect(google.state.imageFetches).toBe(fetches);
    expect(google.state.generateImageCalls).toBe(calls);
    expect(await activities()).toHaveLength(3);
  });
});

describe('pulling with a service account (NEST_PUBSUB_CREDENTIALS)', () => {
  it('signs its JWT for a token and pulls with it, no linked user needed', async () => {
    const other = await startFakeGoogle(P);
    other.state.image = google.state.image;
    const file = other.serviceAccountFile(join(mkdtempSync(join(tmpdir(), 'hs-sa-')), 'sa.json'));
    const app = await createTestApp({
      env: { ...other.env, NEST_PUBSUB_SUBSCRIPTION: other.subscription, NEST_PUBSUB_CREDENTIALS: file },
      chatAnswers: false,
      analysis: false,
    });
    try {
      // Nobody is linked: the message is for no known device, taken and acknowledged all the same.
      const id = other.publish(event('sdm.devices.events.CameraMotion.Motion', 'sa1', 'sa1'));
      await stateReached(
        async () => other.state.acknowledged,
        (ids) => ids.includes(id),
      );
      expect(other.state.serviceAccountGrants).toBeGreaterThanOrEqual(1);
      expect(other.state.imageFetches).toBe(0);
    } finally {
      await app.close();
      await other.close();
    }
  });
});
