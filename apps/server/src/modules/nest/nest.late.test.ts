import { readFileSync } from 'node:fs';
import type { Activity, ChatMessage } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../../../test/app.js';
import { messagePushed, recordCalls, stateReached } from '../../../test/calls.js';
import { sdmEvent, type FakeGoogle } from '../../../test/fake-google.js';
import { fixturePath } from '../../../test/fixtures.js';
import { NEST_PROJECT, startNestPipeline, type NestPipeline } from '../../../test/nest-pipeline.js';

/**
 * Nest events whose picture is gone (older than Google keeps it when they arrive, or GenerateImage says it
 * expired) through the whole pipeline: an activity without a picture, Nest's verdict in words and why there
 * is no picture, one text-only alert; a clip preview in a later message of the session becomes the
 * activity's clip, once.
 */
const P = NEST_PROJECT;
const PERSON = 'sdm.devices.events.CameraPerson.Person';
const CHIME = 'sdm.devices.events.DoorbellChime.Chime';
const MOTION = 'sdm.devices.events.CameraMotion.Motion';
const CLIP_PREVIEW = 'sdm.devices.events.CameraClipPreview.ClipPreview';
const CAMERA = 'Front Door Doorbell';
const NO_PICTURE = "No picture: the event reached Homesitter after Google's picture had expired.";
let nest: NestPipeline;
let t: TestApp;
let google: FakeGoogle;
let who: TestUser;
beforeAll(async () => {
  nest = await startNestPipeline({
    image: readFileSync(fixturePath('person-obama-1.jpg')),
    clip: readFileSync(fixturePath('clip-person.mp4')),
  });
  ({ t, google, who } = nest);
}, 60_000);
afterAll(() => nest?.close());

const acked = (messageId: string) => nest.acked(messageId);
const activities = () => nest.activities();
const alerts = () => nest.alerts();
const minutes = (n: number) => new Date(Date.now() + n * 60_000);

describe('a Nest event that arrives after its picture expired', () => {
  let first: Activity;

  it('makes an activity without a picture and one text-only alert that says so, fetching nothing', async () => {
    const pushed = recordCalls(t.modules.notifications, 'notify');
    const published = recordCalls(t.modules.realtime, 'publish');
    const message = sdmEvent(
      P,
      'door',
      [CHIME, PERSON],
      { sessionId: 'late-s1', eventId: 'late-e1' },
      minutes(-5),
    );
    const id = google.publish(message);
    await messagePushed(published, (m) => m.role === 'agent' && m.source_activity_uuid_list.length > 0);
    published.stop();
    await acked(id);

    const sentence = `${CAMERA} reported: the doorbell rang; a person was at the door. ${NO_PICTURE}`;
    const [alert, ...more] = await alerts();
    expect(more).toEqual([]);
    // Nest's verdict, said as Nest's, and why there is no picture: nothing of ours was seen.
    expect(alert!.text).toBe(sentence);
    expect(alert!.videos).toEqual([
      expect.objectContaining({
        camera_name: CAMERA,
        thumbnail_image_url: null,
        hls_url: null,
        video_url: null,
      }),
    ]);
    const push = await pushed.find((_userId, n) => n.kind === 'activity_alert');
    pushed.stop();
    expect(push.args[1]).toEqual(expect.objectContaining({ title: CAMERA, body: sentence }));
    expect(push.args[1]).not.toHaveProperty('thumbnailUrl');

    first = (await activities()).find((a) => a.activity_uuid === alert!.source_activity_uuid_list[0])!;
    expect(first).toEqual(
      expect.objectContaining({
        media_kind: 'none',
        thumbnail_image_url: null,
        image_urls: [],
        video_url: null,
        objects: [],
        activity_description: sentence,
      }),
    );
    expect(google.state.generateImageCalls).toBe(0);
    expect(google.state.imageFetches).toBe(0);
    expect(nest.framesSeen()).toBe(0);

    // Delivered again (Pub/Sub is at-least-once): taken, nothing new.
    await acked(google.publish(message));
    expect(await activities()).toHaveLength(1);
    expect(await alerts()).toHaveLength(1);
  });

  it('takes GenerateImage saying the picture is gone the same way; motion alone is recorded, not alerted', async () => {
    google.state.imageGone = true;
    try {
      // Apart from the first event (grouping 10 s, alerts 60 s): an activity of its own.
      await acked(
        google.publish(sdmEvent(P, 'door', MOTION, { sessionId: 'late-s2', eventId: 'late-e2' }, minutes(2))),
      );
    } finally {
      google.state.imageGone = false;
    }
    const said = (list: Activity[]) => list.find((a) => a.activity_description?.includes('something moved'));
    const made = said(await stateReached(activities, (list) => said(list) !== undefined))!;
    expect(made.activity_description).toBe(`${CAMERA} reported: something moved. ${NO_PICTURE}`);
    expect(made.media_kind).toBe('none');
    expect(google.state.generateImageCalls).toBe(1);
    expect(google.state.imageFetches).toBe(0);
    expect(await alerts()).toHaveLength(1);
  });

  it('attaches a clip preview of a later message of the session to its activity, once; the alert stays one', async () => {
    const clipMessage = () => {
      const m = sdmEvent(P, 'door', PERSON, { sessionId: 'late-s1', eventId: 'late-e3' }, minutes(-5));
      m.resourceUpdate.events[CLIP_PREVIEW] = {
        eventSessionId: 'late-s1',
        previewUrl: google.previewUrl('late-s1'),
      } as never;
      return m;
    };
    const published = recordCalls(t.modules.realtime, 'publish');
    await acked(google.publish(clipMessage()));
    const clipped = (list: Activity[]) =>
      list.find((a) => a.activity_uuid === first.activity_uuid && a.media_kind === 'video');
    // Analysed with its clip: our sentence first now, Nest's after it, no "No picture".
    const withClip = clipped(
      await stateReached(activities, (list) => !!clipped(list)?.activity_description?.startsWith('A person')),
    )!;
    expect(withClip.hls_url).toEqual(expect.any(String));
    expect(withClip.thumbnail_image_url).toEqual(expect.any(String));
    expect(withClip.activity_description).not.toContain('No picture');
    expect(nest.framesSeen()).toBeGreaterThan(0);
    expect(google.state.clipFetches).toBe(1);

    // The alert sent stays the one alert; its message now shows the clip.
    await stateReached(alerts, (list) => list[0]?.videos[0]?.hls_url != null);
    published.stop();
    expect(await alerts()).toHaveLength(1);
    expect(
      published.calls.filter(
        (c) =>
          c.args[1] === 'ReceiveMessage' && (c.args[2] as ChatMessage).source_activity_uuid_list.length > 0,
      ),
    ).toEqual([]);

    // Delivered again, and another later message with the clip: nothing fetched, nothing new.
    await acked(google.publish(clipMessage()));
    expect(google.state.clipFetches).toBe(1);
    expect((await activities()).filter((a) => a.media_kind === 'video')).toHaveLength(1);
    expect(await activities()).toHaveLength(2);
  });

  it('drops a late event of a private camera without making anything', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/update-camera',
      headers: who.auth,
      payload: { name: CAMERA, settings: { is_private_mode_enabled: true } },
    });
    expect(res.statusCode, res.body).toBe(200);
    await acked(
      google.publish(sdmEvent(P, 'door', PERSON, { sessionId: 'late-s4', eventId: 'late-e4' }, minutes(-10))),
    );
    expect(await activities()).toHaveLength(2);
    expect(await alerts()).toHaveLength(1);
  });
});
