import { readFileSync } from 'node:fs';
import type { Activity } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.js';
import { messagePushed, recordCalls, stateReached } from '../../../test/calls.js';
import { sdmEvent, type FakeGoogle } from '../../../test/fake-google.js';
import { fixturePath } from '../../../test/fixtures.js';
import { NEST_PROJECT, startNestPipeline, type NestPipeline } from '../../../test/nest-pipeline.js';

/**
 * A Nest doorbell's chime and person event through the whole pipeline: Pub/Sub message → GenerateImage picture
 * (the test media's person photo) → activity → analysis → one alert in the chat, with Nest's own verdict in
 * words after ours; the message delivered again alerts nobody twice.
 */
const P = NEST_PROJECT;
const PERSON = 'sdm.devices.events.CameraPerson.Person';
const CHIME = 'sdm.devices.events.DoorbellChime.Chime';
const MOTION = 'sdm.devices.events.CameraMotion.Motion';
const photo = readFileSync(fixturePath('person-obama-1.jpg'));
let nest: NestPipeline;
let t: TestApp;
let google: FakeGoogle;
beforeAll(async () => {
  nest = await startNestPipeline({ image: photo });
  ({ t, google } = nest);
}, 60_000);
afterAll(() => nest?.close());

const acked = (messageId: string) => nest.acked(messageId);
const activities = () => nest.activities();
const alerts = () => nest.alerts();

describe('a Nest person event to an alert', () => {
  it('alerts once in the chat, and not again for the message delivered twice', async () => {
    const published = recordCalls(t.modules.realtime, 'publish');
    const message = sdmEvent(P, 'door', [CHIME, PERSON], { sessionId: 'alert-s1', eventId: 'alert-e1' });
    google.publish(message);
    await messagePushed(published, (m) => m.role === 'agent' && m.source_activity_uuid_list.length > 0);
    published.stop();
    const [alert, ...more] = await alerts();
    expect(more).toEqual([]);
    // Ours first, then Nest's own verdict in words, apart.
    expect(alert!.text).toMatch(
      /^A person .*Front Door Doorbell.*\. Front Door Doorbell reported: the doorbell rang; a person was at the door\.$/,
    );
    expect(alert!.videos).toEqual([
      expect.objectContaining({
        camera_name: 'Front Door Doorbell',
        activity_uuid: alert!.source_activity_uuid_list[0],
      }),
    ]);
    expect(nest.framesSeen()).toBeGreaterThan(0);

    // Redelivered (Pub/Sub is at-least-once): taken and acknowledged, but no new activity, so no alert.
    const again = google.publish(message);
    await stateReached(
      async () => google.state.acknowledged,
      (ids) => ids.includes(again),
    );
    expect(google.state.imageFetches).toBe(1);
    expect(await alerts()).toHaveLength(1);
  });

  it('adds a later message of the session (Person after Motion) to its activity, and a redelivery changes nothing', async () => {
    // Later than the first session's grouping window (10 s), so it is an activity of its own.
    const later = new Date(Date.now() + 20_000);
    const motion = sdmEvent(P, 'door', MOTION, { sessionId: 'alert-s2', eventId: 'alert-e2' }, later);
    await acked(google.publish(motion));
    const said = (list: Activity[]) =>
      list.find((a) => a.activity_description?.includes('reported: something moved'));
    const first = said(await stateReached(activities, (list) => said(list) !== undefined))!;

    const person = sdmEvent(P, 'door', PERSON, { sessionId: 'alert-s2', eventId: 'alert-e3' }, later);
    await acked(google.publish(person));
    const updated = (await activities()).find((a) => a.activity_uuid === first.activity_uuid)!;
    expect(updated.activity_description).toMatch(/ Front Door Doorbell reported: a person was there\.$/);
    expect(google.state.imageFetches).toBe(2);

    await acked(google.publish(person));
    const again = (await activities()).find((a) => a.activity_uuid === first.activity_uuid)!;
    expect(again.activity_description).toBe(updated.activity_description);
    expect(await activities()).toHaveLength(2);
  });

  it("takes a newer camera's clip preview the clip path: a video activity, no GenerateImage", async () => {
    google.state.clip = readFileSync(fixturePath('clip-person.mp4'));
    const calls = google.state.generateImageCalls;
    // Later than the other sessions' grouping window (10 s), so it is an activity of its own.
    const message = sdmEvent(
      P,
      'door',
      PERSON,
      { sessionId: 'alert-s3', eventId: 'alert-e4' },
      new Date(Date.now() + 60_000),
    );
    message.resourceUpdate.events['sdm.devices.events.CameraClipPreview.ClipPreview'] = {
      eventSessionId: 'alert-s3',
      previewUrl: google.previewUrl('alert-s3'),
    } as never;
    await acked(google.publish(message));
    const video = (list: Activity[]) => list.find((a) => a.media_kind === 'video');
    const made = video(await stateReached(activities, (list) => video(list)?.activity_description != null))!;
    expect(made.activity_description).toMatch(/ Front Door Doorbell reported: a person was there\.$/);
    expect(made.hls_url).toEqual(expect.any(String));
    expect(google.state.clipFetches).toBe(1);
    expect(google.state.generateImageCalls).toBe(calls);
  });
});
