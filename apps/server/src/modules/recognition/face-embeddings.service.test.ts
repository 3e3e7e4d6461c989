import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DetectedFace, VisionEngine } from '../../adapters/vision/vision.js';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { png } from '../../../test/images.js';
import { memoryCalls } from '../memories/memories.test-support.js';
import { matchFace } from './face-match.js';

/** A 128-D descriptor with one distinctive component, so tests can tell faces apart. */
const face = (seed: number): number[] => Array.from({ length: 128 }, (_, i) => (i === seed ? 1 : 0));
const detected = (descriptor: number[]): DetectedFace => ({ box: [10, 10, 50, 50], score: 0.99, descriptor });

/** Answers each photo with the faces queued for it; a photo can also be held until the test lets it go. */
function fakeVision() {
  const queue: (DetectedFace[] | Error)[] = [];
  let gate: Promise<void> | undefined;
  let calls = 0;
  const engine: VisionEngine = {
    kind: 'local',
    analyse: async () => ({ width: 0, height: 0, objects: [], faces: [] }),
    async embedFaces() {
      calls++;
      if (gate) await gate;
      const next = queue.shift() ?? [];
      if (next instanceof Error) throw next;
      return next;
    },
    close: async () => undefined,
  };
  return {
    engine,
    queue,
    calls: () => calls,
    hold(): () => void {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return () => {
        gate = undefined;
        open();
      };
    },
  };
}

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let aliceId: string;
let bobId: string;
const vision = fakeVision();
const { call, create, upload } = memoryCalls(() => t);

async function userIdOf(who: TestUser): Promise<string> {
  const res = await call('GET', '/api/users/profile', who);
  return res.json().data.user_uuid as string;
}

beforeAll(async () => {
  t = await createTestApp({ vision: vision.engine });
  alice = await signUp(t);
  bob = await signUp(t);
  aliceId = await userIdOf(alice);
  bobId = await userIdOf(bob);
});
afterAll(async () => t.close());
beforeEach(() => {
  vision.queue.length = 0;
});

const examples = (userId: string) => t.modules.recognition.listForUser(userId);
const settled = () => t.modules.recognition.idle();

describe('face examples of people memories', () => {
  it('learns every face in a photo added to a people memory, under the memory’s name', async () => {
    const rose = await create(alice, 'people', { name: 'Rose' });
    vision.queue.push([detected(face(1)), detected(face(2))]);
    expect((await upload(alice, 'people', rose.memory_uuid, await png())).statusCode).toBe(201);
    await settled();

    const mine = (await examples(aliceId)).filter((e) => e.memoryId === rose.memory_uuid);
    expect(mine).toHaveLength(2);
    expect(mine.map((e) => e.name)).toEqual(['Rose', 'Rose']);
    expect(mine.every((e) => !e.negative && e.descriptor.length === 128)).toBe(true);
    expect(matchFace(face(1), mine)?.name).toBe('Rose');
  });

  it('answers the upload before the faces are read, with the work in a durable job', async () => {
    const ann = await create(alice, 'people', { name: 'Ann' });
    vision.queue.push([detected(face(3))]);
    const release = vision.hold();
    const res = await upload(alice, 'people', ann.memory_uuid, await png());
    expect(res.statusCode).toBe(201);
    expect((await examples(aliceId)).some((e) => e.memoryId === ann.memory_uuid)).toBe(false);
    // In the database, not in memory: a restart now would still learn this photo's faces.
    const queued = await t.database.query<{ memory_id: string }>(
      `select data->>'memoryId' as memory_id from pgboss.job where name = 'recognition.learn-faces'`,
    );
    expect(queued.map((j) => j.memory_id)).toContain(ann.memory_uuid);
    release();
    await settled();
    expect((await examples(aliceId)).some((e) => e.memoryId === ann.memory_uuid)).toBe(true);
  });

  it('forgets a photo’s faces when the photo is removed, and a memory’s when it is deleted', async () => {
    const max = await create(alice, 'people', { name: 'Max' });
    vision.queue.push([detected(face(4))], [detected(face(5))]);
    const first = (await upload(alice, 'people', max.memory_uuid, await png())).json().data.image;
    await upload(alice, 'people', max.memory_uuid, await png(80, 80));
    await settled();
    const ofMax = async () => (await examples(aliceId)).filter((e) => e.memoryId === max.memory_uuid);
    expect(await ofMax()).toHaveLength(2);

    const del = await call(
      'DELETE',
      `/api/users/memories/people/${max.memory_uuid}/images/${first.id}`,
      alice,
    );
    expect(del.statusCode).toBe(200);
    expect((await ofMax()).map((e) => e.descriptor.indexOf(1))).toEqual([5]);

    await call('DELETE', `/api/users/memories/people/${max.memory_uuid}`, alice);
    expect(await ofMax()).toEqual([]);
  });

  it('stores nothing for a photo removed while its faces were being read', async () => {
    const eve = await create(alice, 'people', { name: 'Eve' });
    vision.queue.push([detected(face(6))]);
    const release = vision.hold();
    const image = (await upload(alice, 'people', eve.memory_uuid, await png())).json().data.image;
    await call('DELETE', `/api/users/memories/people/${eve.memory_uuid}/images/${image.id}`, alice);
    release();
    await settled();
    expect((await examples(aliceId)).some((e) => e.memoryId === eve.memory_uuid)).toBe(false);
  });

  it('reads no faces from vehicle and animal photos', async () => {
    const before = vision.calls();
    const car = await create(alice, 'vehicles', { make: 'Tesla', model: 'Model 3', color: 'white' });
    await upload(alice, 'vehicles', car.memory_uuid, await png());
    await settled();
    expect(vision.calls()).toBe(before);
  });

  it('keeps the upload when the faces cannot be read, and learns nothing from it', async () => {
    const zoe = await create(alice, 'people', { name: 'Zoe' });
    vision.queue.push(new Error('model exploded'));
    expect((await upload(alice, 'people', zoe.memory_uuid, await png())).statusCode).toBe(201);
    await settled();
    expect((await examples(aliceId)).some((e) => e.memoryId === zoe.memory_uuid)).toBe(false);
    const list = await call('GET', '/api/users/memories', alice);
    const stored = list
      .json()
      .data.people.find((p: { memory_uuid: string }) => p.memory_uuid === zoe.memory_uuid);
    expect(stored.images).toHaveLength(1);
  });

  it('never lets another user’s memories match', async () => {
    const secret = await create(alice, 'people', { name: 'Secret' });
    vision.queue.push([detected(face(7))]);
    await upload(alice, 'people', secret.memory_uuid, await png());
    await settled();
    const bobs = await examples(bobId);
    expect(bobs).toEqual([]);
    expect(matchFace(face(7), bobs)).toBeUndefined();
    await expect(
      t.modules.recognition.addCorrection(bobId, secret.memory_uuid, face(7), { negative: false }),
    ).rejects.toMatchObject({ status: 404, code: 'memory.not_found' });
  });
});

describe('corrections', () => {
  it('adds confirmed faces as examples and rejected ones as negatives', async () => {
    const rose = await create(alice, 'people', { name: 'Rosa' });
    await t.modules.recognition.addCorrection(aliceId, rose.memory_uuid, face(10), { negative: false });
    await t.modules.recognition.addCorrection(aliceId, rose.memory_uuid, face(11), { negative: true });
    const hers = (await examples(aliceId)).filter((e) => e.memoryId === rose.memory_uuid);
    expect(hers.map((e) => [e.descriptor.indexOf(1), e.negative])).toEqual([
      [10, false],
      [11, true],
    ]);
    expect(matchFace(face(10), hers)?.name).toBe('Rosa');
    expect(matchFace(face(11), hers)).toBeUndefined();
  });

  it('refuses a malformed descriptor, a memory that is not a person, and an activity that is not theirs', async () => {
    const rose = await create(alice, 'people', { name: 'Rosie' });
    const dog = await create(alice, 'animals', { name: 'Rex', species: 'dog' });
    const add = (memoryId: string, descriptor: number[], activityId?: string) =>
      t.modules.recognition.addCorrection(aliceId, memoryId, descriptor, { negative: false, activityId });
    await expect(add(rose.memory_uuid, [1, 2, 3])).rejects.toMatchObject({ status: 400 });
    await expect(add(rose.memory_uuid, [...face(1).slice(1), Number.NaN])).rejects.toMatchObject({
      status: 400,
    });
    await expect(add(dog.memory_uuid, face(1))).rejects.toMatchObject({ status: 404 });
    await expect(add(randomUUID(), face(1))).rejects.toMatchObject({ status: 404 });
    await expect(add(rose.memory_uuid, face(1), randomUUID())).rejects.toMatchObject({ status: 404 });
    expect((await examples(aliceId)).some((e) => e.memoryId === rose.memory_uuid)).toBe(false);
  });
});
