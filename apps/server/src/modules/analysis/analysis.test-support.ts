import type { RealtimeEvents } from '@homesitter/contract';
import { expect } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import type {
  DetectedFace,
  DetectedObject,
  VisionEngine,
  VisionResult,
} from '../../adapters/vision/vision.js';
import { activities } from '../../platform/db/schema.js';
import { createLogger } from '../../platform/logger.js';
import type { ActivityRow } from '../activities/activities.repository.js';
import type { ActivityMedia } from '../alerts/alert-message.js';
import { createAlertsRepository } from '../alerts/alerts.repository.js';
import { createAlertsService, type ActivityAlertNotification } from '../alerts/alerts.service.js';
import { createCorrectionsService } from '../alerts/corrections.service.js';
import type { FaceExample } from '../recognition/face-match.js';
import { recognitionRules } from '../recognition/recognition.js';
import { createAnalysisRepository } from './analysis.repository.js';
import { createAnalysisService } from './analysis.service.js';

/**
 * Shared by the analysis' and the alerts' test files: a server on a fresh database, its users and cameras,
 * and fake eyes.
 */

/** A 128-D face descriptor that is `seed`'s and nobody else's: unit vectors along different axes. */
export function descriptorOf(seed: number, jitter = 0): number[] {
  return Array.from({ length: 128 }, (_, i) => (i === seed ? 1 : 0) + (i === (seed + 1) % 128 ? jitter : 0));
}

export const person = (score = 0.9): DetectedObject => ({
  kind: 'person',
  label: 'person',
  score,
  box: [10, 10, 100, 300],
});
export const car = (color?: DetectedObject['color']): DetectedObject => ({
  kind: 'vehicle',
  label: 'car',
  score: 0.8,
  box: [200, 100, 400, 200],
  ...(color ? { color } : {}),
});
export const face = (descriptor: number[], score = 0.95): DetectedFace => ({
  box: [30, 20, 40, 40],
  score,
  descriptor,
});

/** A vision engine that answers what each frame (a buffer holding a name) was told to show. */
export function fakeVision(scenes: Record<string, Partial<VisionResult>>) {
  const calls: { frame: string; faces: boolean }[] = [];
  const vision: Pick<VisionEngine, 'analyse'> = {
    async analyse(image, options) {
      const frame = image.toString();
      calls.push({ frame, faces: options?.faces ?? false });
      const scene = scenes[frame] ?? {};
      return {
        width: 1280,
        height: 720,
        objects: scene.objects ?? [],
        faces: options?.faces ? (scene.faces ?? []) : [],
      };
    },
  };
  return { vision, calls };
}

/** The face-embeddings store, in memory: photos' examples plus corrections. */
export function fakeFaceExamples() {
  const examples: FaceExample[] = [];
  const corrections: { memoryId: string; negative: boolean; activityId: string }[] = [];
  return {
    examples,
    corrections,
    listForUser: async () => [...examples],
    async addCorrection(
      _userId: string,
      memoryId: string,
      descriptor: number[],
      options: { negative: boolean; activityId: string },
    ) {
      corrections.push({ memoryId, ...options });
      const name = examples.find((e) => e.memoryId === memoryId)?.name ?? '';
      examples.push({ memoryId, name, descriptor, negative: options.negative });
    },
  };
}

export interface AiTestUser extends TestUser {
  userId: string;
}

export async function aiUser(t: TestApp): Promise<AiTestUser> {
  const user = await signUp(t);
  const profile = await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: user.auth });
  return { ...user, userId: profile.json<{ data: { user_uuid: string } }>().data.user_uuid };
}

export async function call(t: TestApp, who: TestUser, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
}

/** Adds a camera through the API (with settings) and answers its id. */
export async function addCamera(
  t: TestApp,
  who: TestUser,
  name: string,
  settings: {
    is_muted?: boolean;
    is_facial_recognition_enabled?: boolean;
    only_unusual_alerts?: boolean;
  } = {},
): Promise<string> {
  const res = await call(t, who, 'POST', '/api/users/cameras', { name, settings });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: { camera_uuid: string } }>().data.camera_uuid;
}

export async function addPerson(t: TestApp, who: TestUser, name: string): Promise<string> {
  const res = await call(t, who, 'POST', '/api/users/memories/people', { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: { memory_uuid: string } }>().data.memory_uuid;
}

/** An activity as the activities module stores it, with one snapshot whose "content" names a scene. */
export async function insertActivity(
  t: TestApp,
  values: {
    userId: string;
    cameraId: string;
    cameraName: string;
    occurredAt: Date;
    scene: string;
    video?: boolean;
  },
): Promise<ActivityRow> {
  const base = `users/${values.userId}/activities/${values.scene}-${values.occurredAt.getTime()}`;
  const [row] = await t.database.db
    .insert(activities)
    .values({
      userId: values.userId,
      cameraId: values.cameraId,
      cameraName: values.cameraName,
      occurredAt: values.occurredAt,
      lastFileAt: values.occurredAt,
      mediaKind: values.video ? 'video' : 'image',
      thumbnailKey: `${base}/thumb.webp`,
      videoKey: values.video ? `${base}/clip.mp4` : null,
      hlsKey: values.video ? `${base}/hls/index.m3u8` : null,
      imageKeys: values.video ? [] : [`${base}/${values.scene}.jpg`],
      width: 1280,
      height: 720,
    })
    .returning();
  return row!;
}

/** The frames of a fake activity: the scene name from its key as the frame's bytes; a clip's "a+b+c" is 3. */
export const sceneFrames = {
  load: async (a: ActivityRow) => {
    const key = a.imageKeys[0] ?? a.videoKey ?? '';
    const scene = /activities\/([^/]+)-\d+\//.exec(key)?.[1] ?? '';
    // Not frames of a real clip: no poster is made of them.
    return {
      frames: (a.videoKey ? scene.split('+') : [scene]).map((frame) => Buffer.from(frame)),
      clip: false,
    };
  },
};

export const fakeMedia = async (a: ActivityRow): Promise<ActivityMedia> => ({
  thumbnail_image_url: `http://homesitter.test/media/${a.thumbnailKey}?sig=t`,
  video_url: a.videoKey ? `http://homesitter.test/media/${a.videoKey}?sig=v` : null,
  hls_url: a.hlsKey ? `http://homesitter.test/media/${a.hlsKey}?sig=h` : null,
});

/** The AI's services on the test app's database and chat, with fake eyes, a fake push and a spy on realtime. */
const originalPublish = new WeakMap<object, TestApp['modules']['realtime']['publish']>();

export function aiServices(t: TestApp, scenes: Record<string, Partial<VisionResult>>) {
  // The alerts' repository, which corrections, richer sentences and amnesia's purge take too; what they and
  // the analysis write on activities goes through the app's activities module, their owner.
  const repo = createAlertsRepository(t.database.db);
  const activityModule = t.modules.activities;
  const { vision, calls } = fakeVision(scenes);
  const faceExamples = fakeFaceExamples();
  const notified: { userId: string; notification: ActivityAlertNotification }[] = [];
  const published: { event: keyof RealtimeEvents; payload: unknown }[] = [];
  // The latest services of a test hear what goes out; the real hub still delivers it.
  const original = originalPublish.get(t.modules.realtime) ?? t.modules.realtime.publish;
  originalPublish.set(t.modules.realtime, original);
  t.modules.realtime.publish = async (userId, event, payload) => {
    published.push({ event, payload });
    return original(userId, event, payload);
  };
  const log = createLogger('silent');
  const alerts = createAlertsService({
    repo,
    activities: activityModule,
    chat: t.modules.chat,
    notify: async (userId, notification) => void notified.push({ userId, notification }),
    media: fakeMedia,
    log,
  });
  const analysis = createAnalysisService({
    repo: createAnalysisRepository(t.database.db),
    activities: activityModule,
    vision,
    frames: sceneFrames,
    recognition: recognitionRules,
    faceExamples,
    alerts,
    routine: t.modules.routine,
    log,
  });
  const corrections = createCorrectionsService({
    repo,
    activities: activityModule,
    faceExamples,
    alerts,
  });
  return {
    repo,
    activities: activityModule,
    analysis,
    alerts,
    corrections,
    faceExamples,
    visionCalls: calls,
    notified,
    published,
  };
}

export async function startAiApp(): Promise<TestApp> {
  return createTestApp();
}
