import type { AddressInfo } from 'node:net';
import type { ChatMessage } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { messagePushed, recordCalls } from '../../../test/calls.js';
import { jpegWithLocation, multipart } from '../../../test/images.js';
import type { VisionEngine } from '../../adapters/vision/vision.js';
import {
  addCamera,
  addPerson,
  aiUser,
  call,
  descriptorOf,
  face,
  person,
  type AiTestUser,
} from './analysis.test-support.js';

/**
 * The whole pipeline in one server: a camera uploads over HTTP ingest, the upload becomes an activity, the
 * AI looks at it (a stand-in engine that sees Rose in every picture) and the alert lands in the chat, then
 * the corrections API and a chat reply teach it. Real jobs, real database, real chat.
 */
const ROSE = descriptorOf(7);
const seesRose: VisionEngine = {
  kind: 'local',
  analyse: async (_image, options) => ({
    width: 640,
    height: 480,
    objects: [person()],
    faces: options?.faces ? [face(descriptorOf(7, 0.2))] : [],
  }),
  embedFaces: async () => [face(ROSE)],
  close: async () => undefined,
};

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ vision: seesRose });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function history(who: TestUser): Promise<ChatMessage[]> {
  return (await call(t, who, 'GET', '/api/users/conversation-history?page=1&pageSize=50')).json<{
    data: ChatMessage[];
  }>().data;
}

/** A household whose Front Door camera (recognition on) uploads a snapshot; answers the alert. */
async function alertFromUpload(who: AiTestUser) {
  await addCamera(t, who, 'Front Door', { is_facial_recognition_enabled: true });
  const rose = await addPerson(t, who, 'Rose');
  const photo = multipart('image', 'rose.jpg', 'image/jpeg', await jpegWithLocation(320, 240));
  const added = await t.app.inject({
    method: 'POST',
    url: `/api/users/memories/people/${rose}/images`,
    payload: photo.payload,
    headers: { ...who.auth, ...photo.headers },
  });
  expect(added.statusCode, added.body).toBe(201);
  await t.modules.recognition.idle();

  // The jobs run in the background: the alert is waited for as the user's apps get it.
  const published = recordCalls(t.modules.realtime, 'publish');
  const login = (await call(t, who, 'GET', '/api/users/camera-email-credentials')).json<{
    data: { username: string; password: string };
  }>().data;
  const body = new FormData();
  body.append('camera_name', 'Front Door');
  body.append('file', new Blob([new Uint8Array(await jpegWithLocation(640, 480))]), 'snap.jpg');
  const uploaded = await fetch(`${base}/api/ingest/events`, {
    method: 'POST',
    body,
    headers: {
      authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
    },
  });
  expect(uploaded.status).toBe(202);
  await messagePushed(published, (m, userId) => userId === who.userId && m.role === 'agent');
  published.stop();
  const alert = (await history(who)).find((m) => m.role === 'agent')!;
  return { rose, alert, activityId: alert.source_activity_uuid_list[0]! };
}

describe('from a camera upload to an alert', () => {
  it('alerts with the recognised person, the clip attachment and a push', async () => {
    const who = await aiUser(t);
    const notify = vi.spyOn(t.modules.notifications, 'notify');
    // The push follows the alert's post.
    const pushed = recordCalls(t.modules.notifications, 'notify');
    const { alert, activityId } = await alertFromUpload(who);
    await pushed.find((userId, n) => userId === who.userId && n.kind === 'activity_alert');
    pushed.stop();
    expect(alert.text).toMatch(/^Rose .*Front Door/);
    expect(alert.videos).toEqual([
      expect.objectContaining({
        activity_uuid: activityId,
        camera_name: 'Front Door',
        activity_description: alert.text,
        thumbnail_image_url: expect.stringMatching(/^http:\/\/homesitter\.test\/media\//),
        metaWidth: 640,
        metaHeight: 480,
      }),
    ]);
    expect(notify).toHaveBeenCalledWith(
      who.userId,
      expect.objectContaining({ kind: 'activity_alert', activityUuid: activityId }),
    );
    const recognition = await call(t, who, 'GET', `/api/users/activities/${activityId}/recognition`);
    expect(recognition.json()).toEqual({
      success: true,
      data: {
        activity_uuid: activityId,
        recognised: [{ category: 'people', memory_uuid: expect.any(String), name: 'Rose' }],
        unknown_faces: 0,
        can_learn: true,
      },
    });
    notify.mockRestore();
  });
});

describe('POST /api/users/activities/{activity_uuid}/corrections', () => {
  let who: AiTestUser;
  let rose: string;
  let activityId: string;
  beforeAll(async () => {
    who = await aiUser(t);
    ({ rose, activityId } = await alertFromUpload(who));
  });
  const correct = (body: object, id = activityId, as: TestUser = who) =>
    call(t, as, 'POST', `/api/users/activities/${id}/corrections`, body);

  it('rejects and confirms a person, rewriting the alert each time', async () => {
    const rejected = await correct({ memory_uuid: rose, is_correct: false });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data).toMatchObject({ recognised: [], unknown_faces: 1, learned_faces: 1 });
    expect((await history(who)).find((m) => m.role === 'agent')!.text).toMatch(/^A person /);

    const confirmed = await correct({ memory_uuid: rose, is_correct: true });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().data).toMatchObject({
      recognised: [{ memory_uuid: rose, name: 'Rose' }],
      unknown_faces: 0,
      learned_faces: 1,
    });
    expect((await history(who)).find((m) => m.role === 'agent')!.text).toMatch(/^Rose /);
  });

  it('answers 400 for a bad body or id, or a memory that cannot be recognised, and changes nothing', async () => {
    const recognitionNow = async () =>
      (await call(t, who, 'GET', `/api/users/activities/${activityId}/recognition`)).json<{ data: unknown }>()
        .data;
    const before = await recognitionNow();
    const bad = [
      {},
      { memory_uuid: rose },
      { memory_uuid: 'rose', is_correct: true },
      { memory_uuid: rose, is_correct: 'yes' },
      { memory_uuid: rose, is_correct: true, extra: 1 },
    ];
    for (const body of bad) {
      const res = await correct(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ success: false });
    }
    expect((await correct({ memory_uuid: rose, is_correct: false }, 'not-a-uuid')).statusCode).toBe(400);
    const note = await call(t, who, 'POST', '/api/users/memories/other', { text: 'Spare key under the mat' });
    const noteId = note.json<{ data: { memory_uuid: string } }>().data.memory_uuid;
    const res = await correct({ memory_uuid: noteId, is_correct: true });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'memory.invalid' });
    expect(await recognitionNow()).toEqual(before);
  });

  it("answers 404 for another user's activity or memory, and for none at all", async () => {
    const stranger = await aiUser(t);
    const theirs = await addPerson(t, stranger, 'Mallory');
    expect((await correct({ memory_uuid: theirs, is_correct: true }, activityId, stranger)).statusCode).toBe(
      404,
    );
    expect((await correct({ memory_uuid: theirs, is_correct: true })).statusCode).toBe(404);
    expect(
      (await correct({ memory_uuid: rose, is_correct: true }, '00000000-0000-4000-8000-000000000000'))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(t, stranger, 'GET', `/api/users/activities/${activityId}/recognition`)).statusCode,
    ).toBe(404);
  });

  it('needs a verified user', async () => {
    const unverified = await signUp(t, { verify: false });
    expect((await correct({ memory_uuid: rose, is_correct: true }, activityId, unverified)).statusCode).toBe(
      403,
    );
  });
});

describe('a chat reply to an alert', () => {
  it('"Not Rose" teaches the recogniser and the home sitter answers the reply', async () => {
    const who = await aiUser(t);
    const { alert, activityId } = await alertFromUpload(who);
    const published = recordCalls(t.modules.realtime, 'publish');
    const sent = await call(t, who, 'POST', '/api/users/messages', {
      text: 'Not Rose',
      reply_to_message_uuid: alert.message_uuid,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const answered = (m: ChatMessage) => m.role === 'agent' && m.message_uuid !== alert.message_uuid;
    await messagePushed(published, (m, userId) => userId === who.userId && answered(m));
    published.stop();
    const answer = (await history(who)).find(answered)!;
    expect(answer.text).toBe("Thanks! I'll remember that this is not Rose.");
    const recognition = await call(t, who, 'GET', `/api/users/activities/${activityId}/recognition`);
    expect(recognition.json().data.recognised).toEqual([]);
  });
});
