import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestUser } from '../../../test/app.js';
import { hasFfmpeg } from '../../../test/clips.js';
import { fixturePath } from '../../../test/fixtures.js';
import type { VisionResult } from '../../adapters/vision/vision.js';
import { createLogger } from '../../platform/logger.js';
import {
  activitiesOf,
  fetchMedia,
  plantUpload,
  startActivitiesApp,
  userIdOf,
  type ActivitiesTestApp,
} from '../activities/activities.test-support.js';
import { recognitionRules } from '../recognition/recognition.js';
import { createActivityFrames } from './activity-frames.js';
import { createAnalysisRepository } from './analysis.repository.js';
import { createAnalysisService } from './analysis.service.js';
import { fakeFaceExamples } from './analysis.test-support.js';
import { bestFrameIndex } from './frames-merge.js';

const person = (score: number, box: [number, number, number, number] = [300, 120, 120, 300]) => ({
  kind: 'person' as const,
  label: 'person',
  score,
  box,
});
const car = (score: number) => ({
  kind: 'vehicle' as const,
  label: 'car',
  score,
  box: [0, 0, 10, 10] as [number, number, number, number],
});

describe('the best frame of a clip', () => {
  it('is the surest person, else the surest detection, else none', () => {
    const none = { objects: [] };
    expect(bestFrameIndex([none, { objects: [person(0.4)] }, { objects: [person(0.8)] }])).toBe(2);
    // A person beats a surer car: the alert is about the person.
    expect(bestFrameIndex([{ objects: [car(0.99)] }, { objects: [person(0.3)] }, none])).toBe(1);
    expect(bestFrameIndex([none, { objects: [car(0.5)] }, { objects: [car(0.7)] }])).toBe(2);
    expect(bestFrameIndex([none, undefined, none])).toBe(-1);
    expect(bestFrameIndex([])).toBe(-1);
  });
});

/** Mean absolute difference of two pictures' pixels at one small size (0: the same picture). */
async function difference(a: Buffer, b: Buffer): Promise<number> {
  const small = (img: Buffer) => sharp(img).resize(64, 36, { fit: 'fill' }).greyscale().raw().toBuffer();
  const [x, y] = await Promise.all([small(a), small(b)]);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!);
  return sum / x.length;
}

describe.runIf(hasFfmpeg())('a clip’s poster after the analysis', () => {
  let a: ActivitiesTestApp;
  let alice: TestUser;
  let aliceId: string;
  beforeAll(async () => {
    // The analysis below is the test's own, with eyes that see the woman only where she is.
    a = await startActivitiesApp({}, { analysis: false });
    alice = await signUp(a.t);
    aliceId = await userIdOf(a.t, alice);
  });
  afterAll(async () => a.t.close());

  it('is the frame with the person, not the empty room the clip starts with', async () => {
    // clip-person.mp4: an empty room for about 5 s (its middle, where the arrival poster is cut, too); the
    // woman walks in at about 6 s.
    const clip = readFileSync(fixturePath('clip-person.mp4'));
    const up = await plantUpload(a, aliceId, {
      camera: 'Living room',
      bytes: clip,
      contentType: 'video/mp4',
      at: new Date('2026-03-01T08:00:00Z'),
    });
    expect(await a.t.modules.activities.processUpload(up.id)).toBe('created');
    const [arrived] = await activitiesOf(a.t, aliceId);
    const arrivalPoster = (await fetchMedia(a.t, await a.storage.signedUrl(arrived!.thumbnailKey!, 60)))
      .rawPayload;

    const frames = createActivityFrames({
      storage: a.storage,
      extractFrames: (video, count) => a.t.modules.media.extractFrames(video, count),
      maxBytes: 10_000_000,
      onToolMissing: () => undefined,
      log: createLogger('silent'),
    });
    const looked = await frames.load(arrived!);
    expect(looked.clip).toBe(true);
    expect(looked.frames).toHaveLength(3);
    const [first, , last] = looked.frames;
    // Stand-in eyes (the real model is tested in analysis.real-model.test.ts): the woman is in the last
    // third of the clip, the earlier frames show the empty room.
    const seen: Buffer[] = [];
    const vision = {
      analyse: async (frame: Buffer): Promise<VisionResult> => {
        seen.push(frame);
        return { width: 768, height: 432, objects: frame.equals(last!) ? [person(0.78)] : [], faces: [] };
      },
    };
    const analysis = createAnalysisService({
      repo: createAnalysisRepository(a.t.database.db),
      activities: a.t.modules.activities,
      vision,
      frames,
      recognition: recognitionRules,
      faceExamples: fakeFaceExamples(),
      alerts: { alertFor: async () => false },
      log: createLogger('silent'),
    });
    const changedBefore = a.events.camerasChanged.length;
    await analysis.analyseActivity(arrived!.id);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    // The camera's card shows the newest poster: the owner's apps are told to fetch the list again.
    expect(a.events.camerasChanged.slice(changedBefore)).toEqual([{ userId: aliceId }]);

    const [analysed] = await activitiesOf(a.t, aliceId);
    expect(analysed!.thumbnailKey).not.toBe(arrived!.thumbnailKey);
    expect(analysed!.thumbnailKey).toMatch(new RegExp(`^users/${aliceId}/activities/${arrived!.id}/poster-`));
    // The arrival poster stays for screens that hold its URL; the new one is a JPEG of the poster's size.
    expect(await a.storage.exists(arrived!.thumbnailKey!)).toBe(true);
    const res = await a.t.app.inject({
      method: 'GET',
      url: `/api/users/activities/${arrived!.id}`,
      headers: alice.auth,
    });
    const shown = res.json<{ data: { thumbnail_image_url: string; focus: { x: number; y: number } } }>().data;
    const poster = (await fetchMedia(a.t, shown.thumbnail_image_url)).rawPayload;
    const meta = await sharp(poster).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 640, 360]);
    // It shows the frame with the woman, not the empty room of the start nor the arrival poster.
    const toLast = await difference(poster, last!);
    expect(toLast).toBeLessThan(4);
    expect(await difference(poster, first!)).toBeGreaterThan(toLast + 4);
    expect(await difference(poster, arrivalPoster)).toBeGreaterThan(toLast + 4);
    // And its crop keeps her: just above her box (300..420 wide, 120..420 down), not the centre.
    expect(shown.focus).toEqual({ x: 0.469, y: 0.174 });

    // A retried job sees the media it looked at (the new poster included) and does not look again.
    const before = seen.length;
    await analysis.analyseActivity(arrived!.id);
    expect(seen.length).toBe(before);
  });
});
