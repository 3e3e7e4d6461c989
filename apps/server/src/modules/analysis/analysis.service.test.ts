import type { ChatMessage } from '@homesitter/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.js';
import { activities, activityFaces } from '../../platform/db/schema.js';
import { createLogger } from '../../platform/logger.js';
import {
  addCamera,
  addPerson,
  aiServices,
  aiUser,
  call,
  car,
  descriptorOf,
  face,
  insertActivity,
  person,
  startAiApp,
  type AiTestUser,
} from './analysis.test-support.js';
import { createEphemeralPurge } from '../alerts/amnesia-purge.js';

const ROSE = descriptorOf(1);
const STRANGER = descriptorOf(40);

const scenes = {
  rose: { objects: [person()], faces: [face(descriptorOf(1, 0.3))] },
  stranger: { objects: [person()], faces: [face(STRANGER)] },
  car: { objects: [car('white')] },
  empty: { objects: [] },
};

let t: TestApp;
beforeAll(async () => {
  t = await startAiApp();
});
afterAll(async () => {
  await t?.close();
});

async function history(who: AiTestUser): Promise<ChatMessage[]> {
  const res = await call(t, who, 'GET', '/api/users/conversation-history?page=1&pageSize=50');
  return res.json<{ data: ChatMessage[] }>().data;
}

async function activityRow(id: string) {
  const [row] = await t.database.db.select().from(activities).where(eq(activities.id, id));
  return row!;
}

/** A user with a camera (recognition on unless said otherwise) and Rose among their people. */
async function household(camera: { is_muted?: boolean; is_facial_recognition_enabled?: boolean } = {}) {
  const who = await aiUser(t);
  const cameraName = 'Front Door';
  const cameraId = await addCamera(t, who, cameraName, { is_facial_recognition_enabled: true, ...camera });
  const rose = await addPerson(t, who, 'Rose');
  const ai = aiServices(t, scenes);
  ai.faceExamples.examples.push({ memoryId: rose, name: 'Rose', descriptor: ROSE, negative: false });
  const activity = (scene: string, occurredAt = new Date('2026-06-01T13:12:00Z'), video = false) =>
    insertActivity(t, { userId: who.userId, cameraId, cameraName, occurredAt, scene, video });
  return { who, cameraId, cameraName, rose, ai, activity };
}

describe('analysing an activity', () => {
  it('recognises a known face, describes the activity and alerts with the activity attached', async () => {
    const { who, rose, ai, activity } = await household();
    const a = await activity('rose');
    await ai.analysis.analyseActivity(a.id);

    const row = await activityRow(a.id);
    expect(row.objects).toEqual([expect.objectContaining({ kind: 'person', label: 'person' })]);
    expect(row.recognised).toEqual([
      expect.objectContaining({ category: 'people', memory_uuid: rose, name: 'Rose' }),
    ]);
    expect(row.description).toMatch(/^Rose .*Front Door.*3:12 PM\.$/);
    expect(row.descriptionLocalized).toBeNull();
    expect(row.analysedAt).not.toBeNull();
    expect(row.alertMessageId).not.toBeNull();
    expect(row.coalescedActivityId).toBe(a.id);

    const [alert] = await history(who);
    expect(alert).toMatchObject({
      message_uuid: row.alertMessageId,
      role: 'agent',
      text: row.description,
      source_activity_uuid_list: [a.id],
    });
    expect(alert!.videos).toEqual([
      expect.objectContaining({
        activity_uuid: a.id,
        camera_name: 'Front Door',
        date_time_utc: '2026-06-01T13:12:00.000Z',
        activity_description: row.description,
        activity_description_in_preferred_language: row.description,
        aspectRatio: 1.7778,
        metaWidth: 1280,
        metaHeight: 720,
        coalesced_activity_uuid: null,
        thumbnail_image_url: expect.stringContaining('/thumb.webp'),
        video_url: null,
        hls_url: null,
        focus: { x: expect.any(Number), y: expect.any(Number) },
      }),
    ]);
    expect(ai.published.map((p) => p.event)).toContain('ReceiveMessage');
    // The live message is cropped where the person is too, not only the history (issue 31 point 10).
    const live = ai.published.find((p) => p.event === 'ReceiveMessage')?.payload as ChatMessage;
    expect(live.videos[0]!.focus).toEqual(alert!.videos[0]!.focus);
    expect(ai.notified).toEqual([
      {
        userId: who.userId,
        notification: {
          kind: 'activity_alert',
          activityUuid: a.id,
          title: 'Front Door',
          body: row.description,
          thumbnailUrl: expect.stringContaining('/thumb.webp'),
        },
      },
    ]);

    const faces = await t.database.db.select().from(activityFaces).where(eq(activityFaces.activityId, a.id));
    expect(faces).toEqual([
      expect.objectContaining({ memoryId: rose, userId: who.userId, box: [30, 20, 40, 40] }),
    ]);
    expect(faces[0]!.descriptor).toHaveLength(128);
  });

  it('writes the description in German too when the user reads German, and the alert in German', async () => {
    const { who, ai, activity } = await household();
    await call(t, who, 'POST', '/api/users/preferred-language', { preferred_language: 'de' });
    const a = await activity('rose');
    await ai.analysis.analyseActivity(a.id);
    const row = await activityRow(a.id);
    expect(row.description).toMatch(/^Rose /);
    expect(row.descriptionLocalized).toMatch(/^Rose .*15:12/);
    const [alert] = await history(who);
    expect(alert!.text).toBe(row.descriptionLocalized);
    expect(alert!.videos[0]).toMatchObject({
      activity_description: row.description,
      activity_description_in_preferred_language: row.descriptionLocalized,
    });
  });

  it('attaches the clip and its HLS playlist for a video activity', async () => {
    const { who, ai, activity } = await household();
    const a = await activity('car', undefined, true);
    await ai.analysis.analyseActivity(a.id);
    const [alert] = await history(who);
    expect(alert!.videos[0]).toMatchObject({
      video_url: expect.stringContaining('/clip.mp4'),
      url: expect.stringContaining('/clip.mp4'),
      hls_url: expect.stringContaining('/index.m3u8'),
    });
  });

  it('looks at every frame of a clip for objects, and for faces only in the one with the surest person', async () => {
    const { rose, ai, activity } = await household();
    const a = await activity('empty+rose+car', undefined, true);
    await ai.analysis.analyseActivity(a.id);
    expect(ai.visionCalls).toEqual([
      { frame: 'empty', faces: false },
      { frame: 'rose', faces: false },
      { frame: 'car', faces: false },
      { frame: 'rose', faces: true },
    ]);
    const row = await activityRow(a.id);
    expect(row.objects.map((o) => o.kind).sort()).toEqual(['person', 'vehicle']);
    expect(row.recognised).toEqual([expect.objectContaining({ memory_uuid: rose })]);
  });

  it('analyses an event of a muted camera but sends no alert', async () => {
    const { who, ai, activity } = await household({ is_muted: true });
    const a = await activity('rose');
    await ai.analysis.analyseActivity(a.id);
    const row = await activityRow(a.id);
    expect(row.analysedAt).not.toBeNull();
    expect(row.recognised).toHaveLength(1);
    expect(row.alertMessageId).toBeNull();
    expect(await history(who)).toEqual([]);
    expect(ai.notified).toEqual([]);
  });

  it('does not look at an event once the camera is in private mode', async () => {
    const { who, ai, activity, cameraName } = await household();
    const a = await activity('rose');
    const hidden = await call(t, who, 'POST', '/api/users/update-camera', {
      name: cameraName,
      settings: { is_private_mode_enabled: true },
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    await ai.analysis.analyseActivity(a.id);
    expect(ai.visionCalls).toEqual([]);
    expect((await activityRow(a.id)).analysedAt).toBeNull();
    expect(await history(who)).toEqual([]);
  });

  it('sends no alert when nothing worth one was seen', async () => {
    const { who, ai, activity } = await household();
    const a = await activity('empty');
    await ai.analysis.analyseActivity(a.id);
    expect((await activityRow(a.id)).description).toMatch(/^Motion/);
    expect(await history(who)).toEqual([]);
  });

  it('does not look for faces when recognition is off for the camera', async () => {
    const { ai, activity } = await household({ is_facial_recognition_enabled: false });
    const a = await activity('rose');
    await ai.analysis.analyseActivity(a.id);
    expect(ai.visionCalls).toEqual([{ frame: 'rose', faces: false }]);
    expect((await activityRow(a.id)).recognised).toEqual([]);
    expect(
      await t.database.db.select().from(activityFaces).where(eq(activityFaces.activityId, a.id)),
    ).toEqual([]);
  });

  it('does not look for faces when recognition is off globally', async () => {
    const { who, ai, activity } = await household();
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/users/settings',
      headers: who.auth,
      payload: { is_facial_recognition_enabled: false },
    });
    expect(put.statusCode, put.body).toBe(200);
    const a = await activity('rose');
    await ai.analysis.analyseActivity(a.id);
    expect(ai.visionCalls).toEqual([{ frame: 'rose', faces: false }]);
    expect((await activityRow(a.id)).recognised).toEqual([]);
  });

  it('leaves a face it does not know unnamed, and keeps it for a later "who is this?"', async () => {
    const { ai, activity } = await household();
    const a = await activity('stranger');
    await ai.analysis.analyseActivity(a.id);
    expect((await activityRow(a.id)).recognised).toEqual([]);
    const faces = await t.database.db.select().from(activityFaces).where(eq(activityFaces.activityId, a.id));
    expect(faces).toEqual([expect.objectContaining({ memoryId: null, distance: null })]);
  });

  it('does not recognise people whose memory belongs to another property', async () => {
    const { who, ai, activity, rose } = await household();
    const site = await call(t, who, 'POST', '/api/users/sites', { name: 'Cabin' });
    const siteUuid = site.json<{ data: { site_uuid: string } }>().data.site_uuid;
    const moved = await call(t, who, 'POST', `/api/users/memories/people/${rose}`, {
      name: 'Rose',
      property_associations: [siteUuid],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const a = await activity('rose');
    await ai.analysis.analyseActivity(a.id);
    expect((await activityRow(a.id)).recognised).toEqual([]);
  });
});

describe('coalescing alerts of one camera', () => {
  it('adds an event within 60 s to the same alert: the message is updated, nobody is pushed again', async () => {
    const { who, ai, activity } = await household();
    const first = await activity('rose', new Date('2026-06-01T13:12:00Z'));
    const second = await activity('car', new Date('2026-06-01T13:12:45Z'));
    await ai.analysis.analyseActivity(first.id);
    await ai.analysis.analyseActivity(second.id);

    const messages = await history(who);
    expect(messages).toHaveLength(1);
    const [alert] = messages;
    expect(alert!.source_activity_uuid_list).toEqual([first.id, second.id]);
    expect(alert!.videos.map((v) => [v.activity_uuid, v.coalesced_activity_uuid])).toEqual([
      [first.id, null],
      [second.id, first.id],
    ]);
    expect(alert!.text.split('\n')).toHaveLength(2);
    expect(ai.notified).toHaveLength(1);
    const update = ai.published.find((p) => p.event === 'ReceiveMessageUpdate');
    expect(update?.payload).toMatchObject({
      message_uuid: alert!.message_uuid,
      source_activity_uuid_list: [first.id, second.id],
    });

    const joined = await activityRow(second.id);
    expect(joined.alertMessageId).toBe(alert!.message_uuid);
    expect(joined.coalescedActivityId).toBe(first.id);
  });

  it('gives the joined alert the time of its newest event: it moves below what was said since, live and in history', async () => {
    const { who, ai, activity } = await household();
    const first = await activity('rose', new Date('2026-06-01T13:12:00Z'));
    const second = await activity('car', new Date('2026-06-01T13:12:45Z'));
    await ai.analysis.analyseActivity(first.id);
    const [sent] = await history(who);
    const question = await call(t, who, 'POST', '/api/users/messages', { text: 'Who is at the door?' });
    expect(question.statusCode, question.body).toBe(201);
    const asked = question.json<{ data: ChatMessage }>().data;
    await ai.analysis.analyseActivity(second.id);

    // Only the question and the alert: an answer to the question may come meanwhile.
    const messages = (await history(who)).filter((m) =>
      [asked.message_uuid, sent!.message_uuid].includes(m.message_uuid),
    );
    expect(messages.map((m) => m.message_uuid)).toEqual([asked.message_uuid, sent!.message_uuid]);
    const alert = messages[1]!;
    expect(Date.parse(alert.date_time_utc)).toBeGreaterThan(Date.parse(asked.date_time_utc));
    const update = ai.published.find((p) => p.event === 'ReceiveMessageUpdate');
    expect(update?.payload).toMatchObject({
      message_uuid: sent!.message_uuid,
      date_time_utc: alert.date_time_utc,
    });
  });

  it("keeps an alert's time when a second look at its own event changes its text", async () => {
    const { who, ai, activity } = await household();
    const a = await activity('rose');
    await ai.analysis.analyseActivity(a.id);
    const [sent] = await history(who);
    await ai.alerts.refresh(who.userId, sent!.message_uuid);
    const [again] = await history(who);
    expect(again!.date_time_utc).toBe(sent!.date_time_utc);
  });

  it('starts a new alert 61 s after the first event', async () => {
    const { who, ai, activity } = await household();
    const first = await activity('rose', new Date('2026-06-01T13:12:00Z'));
    const later = await activity('car', new Date('2026-06-01T13:13:01Z'));
    await ai.analysis.analyseActivity(first.id);
    await ai.analysis.analyseActivity(later.id);
    expect(await history(who)).toHaveLength(2);
    expect(ai.notified).toHaveLength(2);
  });

  it('keeps cameras apart', async () => {
    const { who, ai, activity } = await household();
    const otherCamera = await addCamera(t, who, 'Garage');
    await ai.analysis.analyseActivity((await activity('rose')).id);
    const garage = await insertActivity(t, {
      userId: who.userId,
      cameraId: otherCamera,
      cameraName: 'Garage',
      occurredAt: new Date('2026-06-01T13:12:10Z'),
      scene: 'car',
    });
    await ai.analysis.analyseActivity(garage.id);
    expect(await history(who)).toHaveLength(2);
  });
});

describe("an alert's text", () => {
  it("reads in the user's language as it is now: sent in English, shown in German after the switch", async () => {
    const { who, ai, activity } = await household();
    await ai.analysis.analyseActivity((await activity('stranger')).id);
    const [english] = await history(who);
    expect(english!.text).toMatch(/^A person .*Front Door/);
    const switched = await call(t, who, 'POST', '/api/users/preferred-language', {
      preferred_language: 'de',
    });
    expect(switched.statusCode, switched.body).toBe(200);
    const [german] = await history(who);
    expect(german!.message_uuid).toBe(english!.message_uuid);
    expect(german!.text).toMatch(/^Eine Person .*Front Door/);
    expect(german!.videos[0]!.activity_description_in_preferred_language).toBe(german!.text);
  });
});

describe('reruns', () => {
  it('alerts once when the job runs twice, without looking again at unchanged media', async () => {
    const { who, ai, activity } = await household();
    const a = await activity('rose');
    await ai.analysis.analyseActivity(a.id);
    await ai.analysis.analyseActivity(a.id);
    expect(await history(who)).toHaveLength(1);
    expect(ai.notified).toHaveLength(1);
    expect(ai.visionCalls).toHaveLength(1);
  });

  it('posts a claimed alert whose message never went out (a crash between claim and post), once', async () => {
    const { who, ai, activity } = await household();
    const a = await activity('rose');
    await ai.analysis.analyseActivity(a.id);
    const [alert] = await history(who);
    await t.modules.chat.deleteAgentMessage(who.userId, alert!.message_uuid);
    await ai.analysis.analyseActivity(a.id);
    const again = await history(who);
    expect(again.map((m) => m.message_uuid)).toEqual([alert!.message_uuid]);
  });

  it('does nothing for an activity that is gone', async () => {
    const { ai } = await household();
    await expect(
      ai.analysis.analyseActivity('00000000-0000-4000-8000-000000000000'),
    ).resolves.toBeUndefined();
  });
});

describe('amnesia mode', () => {
  it('purges the activity, its faces and its alert when its time is up, and keeps it out of the history', async () => {
    const { who, ai, activity } = await household();
    await call(t, who, 'POST', '/api/users/update-amnesia-mode', { is_amnesia_mode_enabled: true });
    const a = await activity('rose');
    await ai.analysis.analyseActivity(a.id);
    const list = await call(t, who, 'GET', '/api/users/activities');
    expect(list.json<{ data: unknown[] }>().data).toEqual([]);
    const single = await call(t, who, 'GET', `/api/users/activities/${a.id}`);
    expect(single.statusCode, 'the alert can still open it').toBe(200);

    const purge = (at: Date) =>
      createEphemeralPurge({
        repo: ai.repo,
        chat: t.modules.chat,
        alerts: ai.alerts,
        deleteActivity: async (userId, id) =>
          void (await t.modules.activities.deleteActivities([{ userId, id }])),
        log: createLogger('silent'),
        now: () => at,
      }).purgeDue();
    expect(await purge(new Date(Date.now() + 3_600_000))).toBe(0);
    expect(await purge(new Date(Date.now() + 24 * 3_600_000))).toBe(1);
    expect(await t.database.db.select().from(activities).where(eq(activities.id, a.id))).toEqual([]);
    expect(await history(who)).toEqual([]);
  });

  it('keeps an alert that also shows an activity recorded before amnesia mode, without the purged one', async () => {
    const { who, ai, activity } = await household();
    const kept = await activity('rose', new Date('2026-06-01T13:12:00Z'));
    await ai.analysis.analyseActivity(kept.id);
    await call(t, who, 'POST', '/api/users/update-amnesia-mode', { is_amnesia_mode_enabled: true });
    const forgotten = await activity('car', new Date('2026-06-01T13:12:20Z'));
    await ai.analysis.analyseActivity(forgotten.id);
    expect((await history(who))[0]!.source_activity_uuid_list).toEqual([kept.id, forgotten.id]);

    await createEphemeralPurge({
      repo: ai.repo,
      chat: t.modules.chat,
      alerts: ai.alerts,
      deleteActivity: async (userId, id) =>
        void (await t.modules.activities.deleteActivities([{ userId, id }])),
      log: createLogger('silent'),
      now: () => new Date(Date.now() + 24 * 3_600_000),
    }).purgeDue();
    const [alert] = await history(who);
    expect(alert!.source_activity_uuid_list).toEqual([kept.id]);
    expect(alert!.videos.map((v) => v.activity_uuid)).toEqual([kept.id]);
  });

  it('still alerts, but the activity is kept only for the alert and no face is stored', async () => {
    const { who, ai, activity } = await household();
    const on = await call(t, who, 'POST', '/api/users/update-amnesia-mode', {
      is_amnesia_mode_enabled: true,
    });
    expect(on.statusCode, on.body).toBe(200);
    const a = await activity('rose');
    await ai.analysis.analyseActivity(a.id);

    expect(await history(who)).toHaveLength(1);
    expect(ai.notified).toHaveLength(1);
    const row = await activityRow(a.id);
    expect(row.recognised).toHaveLength(1);
    expect(row.ephemeralUntil).not.toBeNull();
    expect(row.ephemeralUntil!.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    expect(
      await t.database.db.select().from(activityFaces).where(eq(activityFaces.activityId, a.id)),
    ).toEqual([]);
  });
});
