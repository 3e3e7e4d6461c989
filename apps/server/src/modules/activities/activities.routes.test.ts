import { randomUUID } from 'node:crypto';
import type { Activity } from '@homesitter/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestUser } from '../../../test/app.js';
import { stateReached } from '../../../test/calls.js';
import { activities, cameras } from '../../platform/db/schema.js';
import {
  activitiesOf,
  fetchMedia,
  plantUpload,
  startActivitiesApp,
  uploadRow,
  userIdOf,
  type ActivitiesTestApp,
} from './activities.test-support.js';

let a: ActivitiesTestApp;
let alice: TestUser;
let bob: TestUser;
let aliceId: string;
let bobId: string;
beforeAll(async () => {
  a = await startActivitiesApp();
  alice = await signUp(a.t);
  bob = await signUp(a.t);
  aliceId = await userIdOf(a.t, alice);
  bobId = await userIdOf(a.t, bob);
});
afterAll(async () => a.t.close());

interface Page {
  data: Activity[];
  pagination: { page: number; pageSize: number; hasMore: boolean; total?: number };
}

const list = async (who: TestUser, query = '') => {
  const res = await a.t.app.inject({
    method: 'GET',
    url: `/api/users/activities${query}`,
    headers: who.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
};

async function addCamera(who: TestUser, name: string, siteUuid: string | null = null): Promise<string> {
  const res = await a.t.app.inject({
    method: 'POST',
    url: '/api/users/cameras',
    headers: who.auth,
    payload: { name, site_uuid: siteUuid },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: { camera_uuid: string } }>().data.camera_uuid;
}

/** An activity as processing would store it, with a real file behind its thumbnail. */
async function storeActivity(
  userId: string,
  camera: { id: string; name: string; siteId?: string | null },
  occurredAt: Date,
): Promise<string> {
  const id = randomUUID();
  const thumbnailKey = `users/${userId}/activities/${id}/thumb-test.webp`;
  await a.storage.put(thumbnailKey, Buffer.from('thumb'), 'image/webp');
  await a.t.database.db.insert(activities).values({
    id,
    userId,
    cameraId: camera.id,
    cameraName: camera.name,
    siteId: camera.siteId ?? null,
    occurredAt,
    lastFileAt: occurredAt,
    mediaKind: 'image',
    thumbnailKey,
    imageKeys: [],
    width: 640,
    height: 480,
  });
  return id;
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe('GET /api/users/activities', () => {
  let frontId: string;
  let siteUuid: string;
  const stored: string[] = [];
  beforeAll(async () => {
    const site = await a.t.app.inject({
      method: 'POST',
      url: '/api/users/sites',
      headers: alice.auth,
      payload: { name: 'Lake house' },
    });
    siteUuid = site.json<{ data: { site_uuid: string } }>().data.site_uuid;
    frontId = await addCamera(alice, 'Front Door');
    const lakeId = await addCamera(alice, 'Dock', siteUuid);
    // 25 at the front door, a minute apart (newest: 1 minute ago), and 3 at the dock two days ago.
    for (let i = 25; i >= 1; i--)
      stored.push(await storeActivity(aliceId, { id: frontId, name: 'Front Door' }, minutesAgo(i)));
    for (let i = 0; i < 3; i++)
      await storeActivity(
        aliceId,
        { id: lakeId, name: 'Dock', siteId: siteUuid },
        minutesAgo(2 * 24 * 60 + i),
      );
  });

  it('pages newest first, 20 by default, with hasMore from one row past the page', async () => {
    const first = await list(alice, '?camera_name=Front%20Door');
    expect(first.pagination).toEqual({ page: 1, pageSize: 20, hasMore: true });
    expect(first.data.map((x) => x.activity_uuid)).toEqual([...stored].reverse().slice(0, 20));
    const second = await list(alice, '?camera_name=Front%20Door&page=2');
    expect(second.pagination).toEqual({ page: 2, pageSize: 20, hasMore: false });
    expect(second.data).toHaveLength(5);
    const beyond = await list(alice, '?camera_name=Front%20Door&page=9');
    expect(beyond).toEqual({
      success: true,
      data: [],
      pagination: { page: 9, pageSize: 20, hasMore: false },
    });
    const exact = await list(alice, '?camera_name=Front%20Door&pageSize=25');
    expect(exact.pagination.hasMore).toBe(false);
  });

  it('shows each activity with signed media URLs that serve the file', async () => {
    const [newest] = (await list(alice, '?pageSize=1')).data;
    expect(newest).toMatchObject({
      camera_name: 'Front Door',
      site_uuid: null,
      media_kind: 'image',
      width: 640,
      height: 480,
      aspect_ratio: 1.3333,
    });
    expect(newest!.thumbnail_image_url).toMatch(/^http:\/\/homesitter\.test\/media\/users\/.+\?exp=\d+&sig=/);
    expect((await fetchMedia(a.t, newest!.thumbnail_image_url)).rawPayload.toString()).toBe('thumb');
  });

  it('filters by camera (any case), property and time', async () => {
    expect((await list(alice, '?camera_name=front%20DOOR&pageSize=100')).data).toHaveLength(25);
    const dock = await list(alice, `?site_uuid=${siteUuid}`);
    expect(dock.data.map((x) => x.camera_name)).toEqual(['Dock', 'Dock', 'Dock']);
    expect(dock.data.every((x) => x.site_uuid === siteUuid)).toBe(true);
    const from = minutesAgo(10.5).toISOString();
    const to = minutesAgo(5.5).toISOString();
    const window = await list(alice, `?from=${from}&to=${to}`);
    expect(window.data.map((x) => x.activity_uuid)).toEqual(stored.slice(15, 20).reverse());
    expect((await list(alice, '?camera_name=Nowhere')).data).toEqual([]);
  });

  it('shows nobody else’s activities', async () => {
    expect((await list(bob)).data).toEqual([]);
  });

  it.each([
    ['?page=0', 'page starts at 1'],
    ['?pageSize=0', 'pageSize is at least 1'],
    ['?pageSize=101', 'pageSize is at most 100'],
    ['?page=abc', 'page must be a number'],
    ['?from=yesterday', 'from must be an ISO 8601 date-time'],
    ['?to=2026-13-45T00:00:00Z', 'to must be an ISO 8601 date-time'],
    ['?from=2026-02-02T00:00:00Z&to=2026-02-01T00:00:00Z', 'from must not be after to'],
    ['?site_uuid=lake', 'site_uuid must be a UUID'],
    ['?camera=Front', 'camera'],
  ])('refuses %s with 400 and says why', async (query, reason) => {
    const res = await a.t.app.inject({
      method: 'GET',
      url: `/api/users/activities${query}`,
      headers: alice.auth,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'validation_failed' });
    expect(res.body).toContain(reason);
  });

  it('needs a signed-in user', async () => {
    expect((await a.t.app.inject({ method: 'GET', url: '/api/users/activities' })).statusCode).toBe(401);
  });
});

describe('GET /api/users/activities/{uuid}', () => {
  let id: string;
  beforeAll(async () => {
    const cameraId = await addCamera(alice, 'Attic');
    id = await storeActivity(aliceId, { id: cameraId, name: 'Attic' }, minutesAgo(30));
  });

  it("answers the owner's activity", async () => {
    const res = await a.t.app.inject({
      method: 'GET',
      url: `/api/users/activities/${id}`,
      headers: alice.auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { activity_uuid: id, camera_name: 'Attic' } });
  });

  it("answers 404 for another user's activity and for an unknown one", async () => {
    for (const [who, uuid] of [
      [bob, id],
      [alice, randomUUID()],
    ] as const) {
      const res = await a.t.app.inject({
        method: 'GET',
        url: `/api/users/activities/${uuid}`,
        headers: who.auth,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, code: 'activity.not_found' });
    }
  });

  it('answers 400 for an id that is not a uuid', async () => {
    const res = await a.t.app.inject({
      method: 'GET',
      url: '/api/users/activities/12345',
      headers: alice.auth,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('activity_uuid must be an activity uuid');
  });
});

describe("deleting a camera's history", () => {
  it('removes every activity of that camera with its media, and nothing else', async () => {
    const kitchen = await addCamera(alice, 'Kitchen');
    const cellar = await addCamera(alice, 'Cellar');
    const gone = [
      await storeActivity(aliceId, { id: kitchen, name: 'Kitchen' }, minutesAgo(40)),
      await storeActivity(aliceId, { id: kitchen, name: 'Kitchen' }, minutesAgo(41)),
    ];
    const kept = await storeActivity(aliceId, { id: cellar, name: 'Cellar' }, minutesAgo(42));
    const bobs = await storeActivity(
      bobId,
      { id: await addCamera(bob, 'Kitchen'), name: 'Kitchen' },
      minutesAgo(43),
    );

    const res = await a.t.app.inject({
      method: 'DELETE',
      url: '/api/users/cameras/kitchen/activities',
      headers: alice.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { deleted: 2 } });

    const left = (await activitiesOf(a.t, aliceId)).map((r) => r.id);
    expect(left).toContain(kept);
    for (const id of gone) {
      expect(left).not.toContain(id);
      expect(await a.storage.exists(`users/${aliceId}/activities/${id}/thumb-test.webp`)).toBe(false);
    }
    expect((await activitiesOf(a.t, bobId)).map((r) => r.id)).toContain(bobs);
    expect(await a.storage.exists(`users/${aliceId}/activities/${kept}/thumb-test.webp`)).toBe(true);
  });

  it('answers 404 for a camera the user does not have', async () => {
    const res = await a.t.app.inject({
      method: 'DELETE',
      url: '/api/users/cameras/Nope/activities',
      headers: alice.auth,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'camera.not_found' });
  });
});

describe('a renamed camera', () => {
  it('takes its activities along: they show and filter by the new name', async () => {
    const id = await addCamera(alice, 'Old Name');
    await storeActivity(aliceId, { id, name: 'Old Name' }, minutesAgo(50));
    const res = await a.t.app.inject({
      method: 'POST',
      url: '/api/users/update-camera-name',
      headers: alice.auth,
      payload: { current_name: 'Old Name', new_name: 'New Name' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const renamed = await list(alice, '?camera_name=New%20Name');
    expect(renamed.data.map((x) => x.camera_name)).toEqual(['New Name']);
  });
});

describe('retention', () => {
  it('purges activities, their media and uploads older than RETENTION_DAYS, and keeps the rest', async () => {
    const cameraId = await addCamera(alice, 'Archive');
    const old = await storeActivity(aliceId, { id: cameraId, name: 'Archive' }, minutesAgo(31 * 24 * 60));
    const recent = await storeActivity(aliceId, { id: cameraId, name: 'Archive' }, minutesAgo(29 * 24 * 60));
    const oldUpload = await plantUpload(a, aliceId, {
      camera: 'Archive',
      bytes: Buffer.from('stale'),
      contentType: 'image/jpeg',
      at: minutesAgo(31 * 24 * 60),
    });
    const newUpload = await plantUpload(a, aliceId, {
      camera: 'Archive',
      bytes: Buffer.from('fresh'),
      contentType: 'image/jpeg',
      at: minutesAgo(60),
    });
    await a.t.jobs.send('activities.retention', {});
    await stateReached(
      async () => (await activitiesOf(a.t, aliceId)).some((r) => r.id === old),
      (present) => !present,
    );
    expect((await activitiesOf(a.t, aliceId)).some((r) => r.id === recent)).toBe(true);
    expect(await a.storage.exists(`users/${aliceId}/activities/${old}/thumb-test.webp`)).toBe(false);
    expect(await a.storage.exists(`users/${aliceId}/activities/${recent}/thumb-test.webp`)).toBe(true);
    expect(await uploadRow(a.t, oldUpload.id)).toBeUndefined();
    expect(await a.storage.exists(oldUpload.storageKey)).toBe(false);
    expect(await uploadRow(a.t, newUpload.id)).toBeDefined();
    const cams = await a.t.database.db.select().from(cameras);
    expect(cams.some((c) => c.name === 'Archive')).toBe(true);
  });
});

describe("an activity's caption", () => {
  it("follows the owner's language as it is now, for events analysed before the switch too", async () => {
    const carol = await signUp(a.t);
    const carolId = await userIdOf(a.t, carol);
    const cameraId = await addCamera(carol, 'Haustür');
    const id = await storeActivity(carolId, { id: cameraId, name: 'Haustür' }, minutesAgo(20));
    await a.t.database.db
      .update(activities)
      .set({
        objects: [{ kind: 'person', label: 'person', score: 0.9 }],
        analysedAt: minutesAgo(19),
        description: 'A person walked up to the Haustür.',
      })
      .where(eq(activities.id, id));
    const caption = async () =>
      (await list(carol)).data.find((x) => x.activity_uuid === id)!
        .activity_description_in_preferred_language;
    expect(await caption()).toBe('A person walked up to the Haustür.');
    const switched = await a.t.app.inject({
      method: 'POST',
      url: '/api/users/preferred-language',
      headers: carol.auth,
      payload: { preferred_language: 'de' },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(await caption()).toMatch(/^Eine Person kam um \d{1,2}:\d{2} zur Haustür\.$/);
  });
});
