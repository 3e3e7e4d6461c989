import type { ChatMessage } from '@homesitter/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DetectedFace, VisionEngine } from '../../adapters/vision/vision.js';
import type { TestApp } from '../../../test/app.js';
import { createTestApp } from '../../../test/app.js';
import { stateReached } from '../../../test/calls.js';
import { activities, activityFaces, recurringFaces, users } from '../../platform/db/schema.js';
import { createRecurringFacesRepository } from './recurring-faces.repository.js';
import { createRecurringFacesService } from './recurring-faces.service.js';
import {
  addCamera,
  aiUser,
  call,
  insertActivity,
  type AiTestUser,
} from '../analysis/analysis.test-support.js';

/** A person's face: one distinctive component, plus per-sighting noise (0.45 apart, like the fixtures). */
const descriptor = (person: number, sighting: number): number[] =>
  Array.from({ length: 128 }, (_, i) =>
    i === person ? 1 : i === (person + 1 + (sighting % 5)) % 128 ? 0.32 : 0,
  );

/** Memory photos' faces: every photo of a named group shows that group's person. */
let learnt: number[] = [];
const vision: VisionEngine = {
  kind: 'local',
  analyse: async () => ({ width: 0, height: 0, objects: [], faces: [] }),
  embedFaces: async (): Promise<DetectedFace[]> => [
    { box: [10, 10, 50, 50], score: 0.99, descriptor: learnt },
  ],
  close: async () => undefined,
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ vision, analysis: false });
});
afterAll(async () => {
  await t?.close();
});

const DAY = 24 * 3600_000;
const frame = () =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 120, g: 90, b: 60 } } })
    .jpeg()
    .toBuffer();

async function household(settings: { is_facial_recognition_enabled?: boolean } = {}) {
  const who = await aiUser(t);
  const cameraId = await addCamera(t, who, 'Front Door', {
    is_facial_recognition_enabled: true,
    ...settings,
  });
  let sightings = 0;
  /** One activity, `daysAgo` days ago, with this person's face (its frame stored as the camera sent it). */
  const seen = async (person: number, daysAgo: number, minutes = 0) => {
    const at = new Date(Date.now() - daysAgo * DAY - minutes * 60_000);
    const a = await insertActivity(t, {
      userId: who.userId,
      cameraId,
      cameraName: 'Front Door',
      occurredAt: at,
      scene: `p${person}-${++sightings}`,
    });
    await t.deps.storage.put(a.imageKeys[0]!, await frame(), 'image/jpeg');
    await t.database.db.insert(activityFaces).values({
      activityId: a.id,
      userId: who.userId,
      box: [200 + sightings, 100, 90 + sightings * 5, 100],
      descriptor: descriptor(person, sightings),
    });
    return a.id;
  };
  return { who, seen };
}

const offers = (userId: string) =>
  t.database.db.select().from(recurringFaces).where(eq(recurringFaces.userId, userId));
async function history(who: AiTestUser): Promise<ChatMessage[]> {
  const res = await call(t, who, 'GET', '/api/users/conversation-history?page=1&pageSize=20');
  return res.json<{ data: ChatMessage[] }>().data;
}
const recurring = () => t.modules.recurringFaces;
/** The amnesia switch as the profile stores it (the users module's route for it is tested there). */
const amnesia = (userId: string, on: boolean) =>
  t.database.db.update(users).set({ isAmnesiaModeEnabled: on }).where(eq(users.id, userId));

describe('faces that keep coming back', () => {
  it('offers a face seen on three days once, with its best photos, and not a one-off visitor', async () => {
    const { who, seen } = await household();
    for (const daysAgo of [1, 2, 3]) await seen(1, daysAgo);
    await seen(2, 1); // a one-off visitor
    await seen(3, 1);
    await seen(3, 2); // two days: chance, not a pattern

    expect(await recurring().offerFor(who.userId)).toBe(1);
    const [offer] = await history(who);
    expect(offer!.text).toMatch(
      /^Someone I don't know has been here 3 times in the last 4 days — do you know them\?/,
    );
    expect(offer!.image_urls).toHaveLength(3);
    expect(offer!.image_urls[0]).toContain(`/media/users/${who.userId}/recurring-faces/`);
    const photo = await t.app.inject({
      method: 'GET',
      url: new URL(offer!.image_urls[0]!).pathname + new URL(offer!.image_urls[0]!).search,
    });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    // Signed URLs expire; history signs the photos afresh, so the offer still shows them days later.
    const key = new URL(offer!.image_urls[0]!).pathname.replace(/^\/media\//, '');
    const expired = `http://homesitter.test/media/${key}?exp=1&sig=abc`;
    await t.modules.chat.updateAgentMessage(who.userId, offer!.message_uuid, {
      text: offer!.text,
      image_urls: [expired],
    });
    const [shown] = await history(who);
    expect(shown!.image_urls[0]).not.toBe(expired);
    const fresh = new URL(shown!.image_urls[0]!);
    expect((await t.app.inject({ method: 'GET', url: fresh.pathname + fresh.search })).statusCode).toBe(200);

    // Offered once: not again the next day, nor when the same person keeps coming.
    expect(await recurring().offerFor(who.userId)).toBe(0);
    await seen(1, 0);
    expect(await recurring().offerFor(who.userId)).toBe(0);
    expect(await history(who)).toHaveLength(1);
    expect(await offers(who.userId)).toEqual([
      expect.objectContaining({ status: 'offered', visits: 3, days: 3, messageId: offer!.message_uuid }),
    ]);

    // A clearly different person who keeps coming is a new offer.
    for (const daysAgo of [1, 2, 3]) await seen(9, daysAgo);
    expect(await recurring().offerFor(who.userId)).toBe(1);
  });

  it('offers nothing in amnesia mode or with facial recognition off', async () => {
    const amnesic = await household();
    for (const daysAgo of [1, 2, 3]) await amnesic.seen(1, daysAgo);
    await amnesia(amnesic.who.userId, true);
    expect(await recurring().offerFor(amnesic.who.userId)).toBe(0);
    await amnesia(amnesic.who.userId, false);
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/users/settings',
      headers: amnesic.who.auth,
      payload: { is_facial_recognition_enabled: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(await recurring().offerFor(amnesic.who.userId)).toBe(0);
    expect(await history(amnesic.who)).toHaveLength(0);

    // Recognition off for the camera: its faces are not used either.
    const cameraOff = await household({ is_facial_recognition_enabled: false });
    for (const daysAgo of [1, 2, 3]) await cameraOff.seen(1, daysAgo);
    expect(await recurring().offerFor(cameraOff.who.userId)).toBe(0);
  });

  it('makes the people memory with the photos when the owner names them in a reply', async () => {
    const { who, seen } = await household();
    for (const daysAgo of [1, 2, 3]) await seen(4, daysAgo);
    await recurring().offerFor(who.userId);
    const [offer] = await history(who);
    learnt = descriptor(4, 0);

    const sent = await call(t, who, 'POST', '/api/users/messages', {
      text: "that's Tom, my neighbour",
      images: [],
      reply_to_message_uuid: offer!.message_uuid,
    });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    const messages = await stateReached(
      () => history(who),
      (m) => m.length >= 3,
    );
    expect(messages.at(-1)!.text).toBe(
      "Thanks! I'll remember Tom (with 3 photos) and name them from now on.",
    );

    const list = await call(t, who, 'GET', '/api/users/memories');
    const tom = list.json<{ data: { people: { name: string; notes: string | null; images: unknown[] }[] } }>()
      .data.people;
    expect(tom).toEqual([expect.objectContaining({ name: 'Tom', notes: 'my neighbour' })]);
    expect(tom[0]!.images).toHaveLength(3);
    // The photos' faces are learnt as for any memory photo (`recognition.learn-faces`).
    await t.modules.recognition.idle();
    const examples = await stateReached(
      () => t.modules.recognition.listForUser(who.userId),
      (e) => e.length === 3,
    );
    expect(examples.every((e) => e.name === 'Tom')).toBe(true);
    expect((await offers(who.userId))[0]).toMatchObject({ status: 'named' });

    // Named: the same face is not unknown any more, and is never offered again.
    await seen(4, 0);
    expect(await recurring().offerFor(who.userId)).toBe(0);
  });

  it('dismisses the offer on "I don\'t know", and answers other replies as usual', async () => {
    const { who, seen } = await household();
    for (const daysAgo of [1, 2, 3]) await seen(6, daysAgo);
    await recurring().offerFor(who.userId);
    const [offer] = await history(who);

    expect(await recurring().answer(who.userId, offer!.message_uuid, 'what happened today')).toEqual({
      handled: false,
    });
    expect(await recurring().answer(who.userId, offer!.message_uuid, "I don't know")).toEqual({
      handled: true,
      reply: "OK, I won't ask about them again.",
    });
    expect((await offers(who.userId))[0]).toMatchObject({ status: 'dismissed' });
    expect(await recurring().answer(who.userId, offer!.message_uuid, 'das ist Tom')).toEqual({
      handled: false,
    });
    for (const daysAgo of [0, 4]) await seen(6, daysAgo);
    expect(await recurring().offerFor(who.userId)).toBe(0);
    const memories = await call(t, who, 'GET', '/api/users/memories');
    expect(memories.json<{ data: { people: unknown[] } }>().data.people).toEqual([]);
  });

  it('creates no memory from a name given in amnesia mode', async () => {
    const { who, seen } = await household();
    for (const daysAgo of [1, 2, 3]) await seen(8, daysAgo);
    await recurring().offerFor(who.userId);
    const [offer] = await history(who);
    await amnesia(who.userId, true);
    expect(await recurring().answer(who.userId, offer!.message_uuid, 'das ist Tom')).toEqual({
      handled: true,
      reply: 'Der Amnesie-Modus ist an, deshalb kann ich mir gerade niemanden merken.',
    });
    const memories = await call(t, who, 'GET', '/api/users/memories');
    expect(memories.json<{ data: { people: unknown[] } }>().data.people).toEqual([]);
    expect((await offers(who.userId))[0]).toMatchObject({ status: 'offered' });
  });

  it('forgets an offer and its photos once its sightings are deleted', async () => {
    const { who, seen } = await household();
    for (const daysAgo of [1, 2, 3]) await seen(11, daysAgo);
    await recurring().offerFor(who.userId);
    const [offer] = await offers(who.userId);
    expect(await t.deps.storage.get(offer!.photoKeys[0]!)).toBeDefined();

    // Still seen: kept (the hourly run at an hour that is nobody's evening offers nothing).
    const night = new Date(new Date().setUTCHours(3, 0, 0, 0));
    await recurring().run(night);
    expect(await offers(who.userId)).toHaveLength(1);

    // "Delete history" (or retention) took the activities: the offer, its centroid and its photos go too.
    await t.database.db.delete(activities).where(eq(activities.userId, who.userId));
    await recurring().run(night);
    expect(await offers(who.userId)).toEqual([]);
    expect(await t.deps.storage.get(offer!.photoKeys[0]!)).toBeUndefined();
  });

  it('offers in the owner’s evening, by their own time zone', async () => {
    const { who, seen } = await household();
    for (const daysAgo of [1, 2, 3]) await seen(13, daysAgo);
    await t.database.db.update(users).set({ timezone: 'Asia/Tokyo' }).where(eq(users.id, who.userId));
    const today = new Date();
    const at = (utcHour: number) => new Date(new Date(today).setUTCHours(utcHour, 35, 0, 0));
    await recurring().run(at(18)); // 03:35 in Tokyo
    expect(await history(who)).toHaveLength(0);
    await recurring().run(at(9)); // 18:35 in Tokyo
    expect(await history(who)).toHaveLength(1);
  });

  it('cuts a clip’s photo from the frame where the face is found again', async () => {
    const { who, seen } = await household();
    for (const daysAgo of [1, 2, 3]) await seen(15, daysAgo);
    const frames = await Promise.all(
      [10, 200, 60].map((r) =>
        sharp({ create: { width: 640, height: 480, channels: 3, background: { r, g: 0, b: 0 } } })
          .jpeg()
          .toBuffer(),
      ),
    );
    const red = async (jpeg: Buffer) => (await sharp(jpeg).stats()).channels[0]!.mean;
    const service = createRecurringFacesService({
      repo: createRecurringFacesRepository(t.database.db),
      // Only the middle frame shows the stored face.
      vision: {
        embedFaces: async (jpeg) =>
          (await red(jpeg)) > 150
            ? [{ box: [0, 0, 10, 10], score: 1, descriptor: descriptor(15, 1) }]
            : [{ box: [0, 0, 10, 10], score: 1, descriptor: descriptor(99, 1) }],
      },
      frames: { load: async () => frames },
      storage: t.deps.storage,
      chat: t.modules.chat,
      memories: t.modules.memories,
      examples: t.modules.recognition,
      urlTtlSeconds: 3600,
      retentionDays: 30,
      spoolDir: t.deps.config.DATA_DIR,
      log: t.deps.log,
    });
    expect(await service.offerFor(who.userId)).toBe(1);
    const [offer] = await offers(who.userId);
    expect(offer!.photoKeys).toHaveLength(3);
    for (const key of offer!.photoKeys) {
      const stored = await t.deps.storage.get(key);
      const chunks: Buffer[] = [];
      for await (const c of stored!.body) chunks.push(c as Buffer);
      expect(await red(Buffer.concat(chunks))).toBeGreaterThan(150);
    }
  });
});
