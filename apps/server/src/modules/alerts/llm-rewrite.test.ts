import type { ChatMessage } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.js';
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
} from '../analysis/analysis.test-support.js';
import type { RicherDescriptionInput } from './llm-sentence.js';
import { createRicherDescriptions } from './llm-rewrite.js';

let t: TestApp;
beforeAll(async () => {
  t = await startAiApp();
});
afterAll(async () => {
  await t?.close();
});

async function alerted() {
  const who = await aiUser(t);
  const cameraId = await addCamera(t, who, 'Front Door', { is_facial_recognition_enabled: true });
  const rose = await addPerson(t, who, 'Rose');
  await addPerson(t, who, 'Jim');
  const ai = aiServices(t, { rose: { objects: [person()], faces: [face(descriptorOf(1))] } });
  ai.faceExamples.examples.push({
    memoryId: rose,
    name: 'Rose',
    descriptor: descriptorOf(1),
    negative: false,
  });
  const a = await insertActivity(t, {
    userId: who.userId,
    cameraId,
    cameraName: 'Front Door',
    occurredAt: new Date('2026-06-01T13:12:00Z'),
    scene: 'rose',
  });
  await ai.analysis.analyseActivity(a.id);
  const alert = async () =>
    (await call(t, who, 'GET', '/api/users/conversation-history')).json<{ data: ChatMessage[] }>().data[0]!;
  return { ai, activityId: a.id, alert };
}

describe('a richer sentence from the language model, after the alert', () => {
  it("rewrites the alert's text and attachment with the model's sentence, from the facts and the picture", async () => {
    const { ai, activityId, alert } = await alerted();
    const before = await alert();
    const asked: RicherDescriptionInput[] = [];
    const richer = createRicherDescriptions({
      repo: ai.repo,
      activities: ai.activities,
      describer: {
        describe: async (input) => {
          asked.push(input);
          return {
            description: 'Rose, in a red coat, came to the Front Door at 3:12 PM.',
            descriptionLocalized: null,
          };
        },
      },
      image: async () => ({ bytes: Buffer.from('jpeg'), contentType: 'image/jpeg' }),
      alerts: ai.alerts,
    });
    await richer.describe(activityId);

    expect(asked[0]).toMatchObject({
      facts: { cameraName: 'Front Door', recognised: [{ category: 'people', name: 'Rose' }] },
      localizedLanguage: null,
      imageUrl: `data:image/jpeg;base64,${Buffer.from('jpeg').toString('base64')}`,
    });
    expect(asked[0]!.knownNames?.sort()).toEqual(['Jim', 'Rose']);
    const after = await alert();
    expect(after.message_uuid).toBe(before.message_uuid);
    expect(after.text).toBe('Rose, in a red coat, came to the Front Door at 3:12 PM.');
    expect(after.videos[0]!.activity_description).toBe(after.text);
    expect(ai.published.at(-1)).toMatchObject({ event: 'ReceiveMessageUpdate' });
  });

  it('keeps the built-in sentence when the model gives nothing usable', async () => {
    const { ai, activityId, alert } = await alerted();
    const before = await alert();
    const richer = createRicherDescriptions({
      repo: ai.repo,
      activities: ai.activities,
      describer: { describe: async () => undefined },
      image: async () => undefined,
      alerts: ai.alerts,
    });
    await richer.describe(activityId);
    expect((await alert()).text).toBe(before.text);
  });
});
