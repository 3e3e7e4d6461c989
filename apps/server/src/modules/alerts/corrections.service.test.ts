import type { ChatMessage } from '@homesitter/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.js';
import { activities, activityFaces } from '../../platform/db/schema.js';
import {
  addCamera,
  addPerson,
  aiServices,
  aiUser,
  call,
  descriptorOf,
  face,
  insertActivity,
  person,
  startAiApp,
  type AiTestUser,
} from '../analysis/analysis.test-support.js';

const ROSE = descriptorOf(1);
const scenes = {
  rose: { objects: [person()], faces: [face(descriptorOf(1, 0.3))] },
  stranger: { objects: [person()], faces: [face(descriptorOf(60))] },
  twoStrangers: { objects: [person(), person()], faces: [face(descriptorOf(60)), face(descriptorOf(90))] },
  back: { objects: [person()] },
};

let t: TestApp;
beforeAll(async () => {
  t = await startAiApp();
});
afterAll(async () => {
  await t?.close();
});

async function household() {
  const who = await aiUser(t);
  const cameraId = await addCamera(t, who, 'Front Door', { is_facial_recognition_enabled: true });
  const rose = await addPerson(t, who, 'Rose');
  const ai = aiServices(t, scenes);
  ai.faceExamples.examples.push({ memoryId: rose, name: 'Rose', descriptor: ROSE, negative: false });
  const analysed = async (scene: string, at = new Date('2026-06-01T13:12:00Z')) => {
    const a = await insertActivity(t, {
      userId: who.userId,
      cameraId,
      cameraName: 'Front Door',
      occurredAt: at,
      scene,
    });
    await ai.analysis.analyseActivity(a.id);
    return a.id;
  };
  return { who, rose, ai, analysed };
}

const row = async (id: string) =>
  (await t.database.db.select().from(activities).where(eq(activities.id, id)))[0]!;
const faces = (id: string) =>
  t.database.db.select().from(activityFaces).where(eq(activityFaces.activityId, id));
async function alertOf(who: AiTestUser): Promise<ChatMessage> {
  const res = await call(t, who, 'GET', '/api/users/conversation-history?page=1&pageSize=10');
  return res.json<{ data: ChatMessage[] }>().data.at(-1)!;
}

describe('confirming who is in an activity', () => {
  it('teaches the memory from an unknown face and names it on the activity and its alert', async () => {
    const { who, rose, ai, analysed } = await household();
    const id = await analysed('stranger');
    const result = await ai.corrections.correct(who.userId, id, rose, true);
    expect(result).toEqual({
      activity_uuid: id,
      recognised: [{ category: 'people', memory_uuid: rose, name: 'Rose' }],
      unknown_faces: 0,
      can_learn: true,
      learned_faces: 1,
    });
    expect(ai.faceExamples.corrections).toEqual([{ memoryId: rose, negative: false, activityId: id }]);
    expect(await faces(id)).toEqual([expect.objectContaining({ memoryId: rose, distance: 0 })]);
    expect((await row(id)).description).toMatch(/^Rose /);
    expect((await alertOf(who)).text).toMatch(/^Rose /);
    expect(ai.published.at(-1)).toMatchObject({ event: 'ReceiveMessageUpdate' });

    // Next time the same face is recognised.
    const next = await analysed('stranger', new Date('2026-06-01T15:00:00Z'));
    expect((await row(next)).recognised).toEqual([expect.objectContaining({ memory_uuid: rose })]);
  });

  it('adds a recognised face to the memory once, however often it is confirmed', async () => {
    const { who, rose, ai, analysed } = await household();
    const id = await analysed('rose');
    await ai.corrections.correct(who.userId, id, rose, true);
    const again = await ai.corrections.correct(who.userId, id, rose, true);
    expect(again.learned_faces).toBe(0);
    expect(ai.faceExamples.corrections).toHaveLength(1);
    expect(again.recognised).toHaveLength(1);
  });

  it('learns nothing from two unknown faces (it cannot tell which), but still names the memory', async () => {
    const { who, rose, ai, analysed } = await household();
    const id = await analysed('twoStrangers');
    const result = await ai.corrections.correct(who.userId, id, rose, true);
    expect(result.learned_faces).toBe(0);
    expect(result.unknown_faces).toBe(2);
    expect(result.recognised).toEqual([expect.objectContaining({ memory_uuid: rose })]);
  });

  it('moves a face taken for someone else to the right memory', async () => {
    const { who, rose, ai, analysed } = await household();
    const jim = await addPerson(t, who, 'Jim');
    const id = await analysed('rose');
    const result = await ai.corrections.correct(who.userId, id, jim, true);
    expect(result.recognised).toEqual([{ category: 'people', memory_uuid: jim, name: 'Jim' }]);
    expect(ai.faceExamples.corrections).toEqual([
      { memoryId: rose, negative: true, activityId: id },
      { memoryId: jim, negative: false, activityId: id },
    ]);
  });
});

describe('rejecting who is in an activity', () => {
  it('makes the face a negative example, removes the memory and rewrites the alert', async () => {
    const { who, rose, ai, analysed } = await household();
    const id = await analysed('rose');
    expect((await alertOf(who)).text).toMatch(/^Rose /);
    const result = await ai.corrections.correct(who.userId, id, rose, false);
    expect(result).toMatchObject({ recognised: [], unknown_faces: 1, learned_faces: 1 });
    expect(ai.faceExamples.corrections).toEqual([{ memoryId: rose, negative: true, activityId: id }]);
    expect((await row(id)).recognised).toEqual([]);
    expect((await alertOf(who)).text).toMatch(/^A person /);

    // The same face is not taken for Rose again.
    const next = await analysed('rose', new Date('2026-06-01T15:00:00Z'));
    expect((await row(next)).recognised).toEqual([]);
  });
});

describe('ownership', () => {
  it("refuses another user's activity and memory as not found", async () => {
    const owner = await household();
    const id = await owner.analysed('rose');
    const other = await household();
    await expect(other.ai.corrections.correct(other.who.userId, id, other.rose, true)).rejects.toMatchObject({
      status: 404,
      code: 'activity.not_found',
    });
    await expect(owner.ai.corrections.correct(owner.who.userId, id, other.rose, true)).rejects.toMatchObject({
      status: 404,
      code: 'memory.not_found',
    });
  });
});

describe('corrections by chat', () => {
  it('"that\'s Rose" in reply to an alert confirms Rose on every activity of the alert', async () => {
    const { who, rose, ai, analysed } = await household();
    const first = await analysed('stranger');
    const second = await analysed('back', new Date('2026-06-01T13:12:30Z'));
    const alert = await alertOf(who);
    expect(alert.source_activity_uuid_list).toEqual([first, second]);

    const outcome = await ai.corrections.applyChatCorrection(who.userId, alert.message_uuid, "That's Rose");
    expect(outcome).toEqual({ handled: true, reply: "Thanks! I'll remember that this is Rose." });
    expect((await row(first)).recognised).toEqual([expect.objectContaining({ memory_uuid: rose })]);
    expect((await row(second)).recognised).toEqual([expect.objectContaining({ memory_uuid: rose })]);
    expect((await alertOf(who)).text).toMatch(/^Rose /);
  });

  it('"nicht Rose" answers in German and removes her', async () => {
    const { who, ai, analysed } = await household();
    const id = await analysed('rose');
    const alert = await alertOf(who);
    const outcome = await ai.corrections.applyChatCorrection(who.userId, alert.message_uuid, 'Nicht Rose');
    expect(outcome).toEqual({ handled: true, reply: 'Danke! Ich merke mir, dass das nicht Rose ist.' });
    expect((await row(id)).recognised).toEqual([]);
  });

  it('says so when it knows nobody of that name, and ignores what is not a correction of an alert', async () => {
    const { who, ai, analysed } = await household();
    await analysed('rose');
    const alert = await alertOf(who);
    expect(await ai.corrections.applyChatCorrection(who.userId, alert.message_uuid, "that's Bob")).toEqual({
      handled: true,
      reply: "I don't know anyone called Bob yet. Add Bob under Memories, then tell me again.",
    });
    expect(await ai.corrections.applyChatCorrection(who.userId, alert.message_uuid, "that's great")).toEqual({
      handled: false,
    });
    expect(await ai.corrections.applyChatCorrection(who.userId, alert.message_uuid, 'who was it?')).toEqual({
      handled: false,
    });
    const notAnAlert = await t.modules.chat.postAgentMessage(who.userId, { text: 'Hello' });
    expect(
      await ai.corrections.applyChatCorrection(who.userId, notAnAlert.message_uuid, "that's Rose"),
    ).toEqual({
      handled: false,
    });
  });
});
