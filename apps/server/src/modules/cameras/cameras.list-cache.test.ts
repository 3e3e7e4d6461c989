/**
 * The cameras list is answered from a per-user cache on the embedded database (platform/read-cache.ts).
 * Each test reads the list first (so it is cached), changes something the list shows, and expects the very
 * next read to show it. On PostgreSQL the cache is off and the same tests simply read the database.
 */
import type { Camera } from '@homesitter/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestUser } from '../../../test/app.js';
import { recordCalls } from '../../../test/calls.js';
import { cameras } from '../../platform/db/schema.js';
import {
  plantUpload,
  startActivitiesApp,
  uploadRow,
  userIdOf,
  type ActivitiesTestApp,
} from '../activities/activities.test-support.js';

/** The suite's PostgreSQL run (test/database.ts): no cache there. */
const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
let a: ActivitiesTestApp;
let snapshot: Buffer;

beforeAll(async () => {
  a = await startActivitiesApp();
  snapshot = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 40, g: 90, b: 160 } },
  })
    .jpeg()
    .toBuffer();
});
afterAll(async () => a.t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser, payload?: object) =>
  a.t.app.inject({ method, url, payload, headers: who.auth });

async function listed(who: TestUser): Promise<Camera[]> {
  const res = await call('GET', '/api/users/cameras', who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Camera[] }>().data;
}

/** A camera's snapshot taken at `at`, as the ingest would store it. */
const snapshotOf = (camera: string, at: Date) => ({ camera, bytes: snapshot, contentType: 'image/jpeg', at });

const named = async (who: TestUser, name: string) => (await listed(who)).find((c) => c.name === name);

async function addSite(who: TestUser, name: string): Promise<string> {
  const res = await call('POST', '/api/users/sites', who, { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: { site_uuid: string } }>().data.site_uuid;
}

describe('the cached cameras list', () => {
  it.skipIf(ON_POSTGRES)(
    'is cached on the embedded database: a row written behind the services’ back is not seen',
    async () => {
      const who = await signUp(a.t);
      expect(await listed(who)).toEqual([]);
      await a.t.database.db.insert(cameras).values({ userId: await userIdOf(a.t, who), name: 'Hidden' });
      expect(await listed(who)).toEqual([]);
    },
  );

  it('shows a camera as soon as it is added, and each change to it', async () => {
    const who = await signUp(a.t);
    expect(await listed(who)).toEqual([]);
    expect((await call('POST', '/api/users/cameras', who, { name: 'Porch' })).statusCode).toBe(201);
    expect((await listed(who)).map((c) => c.name)).toEqual(['Porch']);

    await call('PUT', '/api/cameras/Porch/settings', who, { notes: 'Faces the street', is_muted: true });
    expect((await named(who, 'Porch'))?.settings).toMatchObject({
      notes: 'Faces the street',
      is_muted: true,
    });

    await call('POST', '/api/users/update-camera', who, {
      name: 'Porch',
      settings: { is_private_mode_enabled: true },
      configuration_status: 'configured',
    });
    expect(await named(who, 'Porch')).toMatchObject({
      configuration_status: 'configured',
      settings: { is_private_mode_enabled: true },
    });

    await call('POST', '/api/users/update-camera-name', who, {
      current_name: 'Porch',
      new_name: 'Front porch',
    });
    expect((await listed(who)).map((c) => c.name)).toEqual(['Front porch']);

    await call('POST', '/api/users/update-camera', who, {
      name: 'Front porch',
      removed_date_time_utc: new Date().toISOString(),
    });
    expect(await listed(who)).toEqual([]);
  });

  it('follows its property: associated, and unassigned when the property is deleted', async () => {
    const who = await signUp(a.t);
    await call('POST', '/api/users/cameras', who, { name: 'Garage' });
    const site = await addSite(who, 'Home');
    expect((await named(who, 'Garage'))?.site_uuid).toBeNull();

    await call('POST', '/api/users/cameras/site-association', who, {
      camera_name: 'Garage',
      site_uuid: site,
    });
    expect((await named(who, 'Garage'))?.site_uuid).toBe(site);

    expect((await call('DELETE', `/api/users/sites/${site}`, who)).statusCode).toBe(200);
    expect((await named(who, 'Garage'))?.site_uuid).toBeNull();
  });

  it('shows a camera that registered itself with an upload, and its last activity', async () => {
    const who = await signUp(a.t);
    const userId = await userIdOf(a.t, who);
    expect(await listed(who)).toEqual([]);
    const at = new Date(Date.now() - 60_000);
    const up = await plantUpload(a, userId, snapshotOf('Driveway', at));
    await a.t.modules.activities.processUpload(up.id);
    expect(await named(who, 'Driveway')).toMatchObject({ last_activity_date_time_utc: at.toISOString() });
  });

  it('moves a camera’s last activity with its next event, and brings a removed camera back', async () => {
    const who = await signUp(a.t);
    const userId = await userIdOf(a.t, who);
    await call('POST', '/api/users/cameras', who, { name: 'Garden' });
    await call('POST', '/api/users/update-camera', who, {
      name: 'Garden',
      removed_date_time_utc: new Date().toISOString(),
    });
    expect(await listed(who)).toEqual([]);

    const first = new Date(Date.now() - 120_000);
    const up = await plantUpload(a, userId, snapshotOf('Garden', first));
    await a.t.modules.activities.processUpload(up.id);
    expect(await named(who, 'Garden')).toMatchObject({
      removed_date_time_utc: null,
      last_activity_date_time_utc: first.toISOString(),
    });

    const next = new Date(first.getTime() + 60_000);
    const later = await plantUpload(a, userId, snapshotOf('Garden', next));
    await a.t.modules.activities.processUpload(later.id);
    expect((await named(who, 'Garden'))?.last_activity_date_time_utc).toBe(next.toISOString());
  });

  it('moves a camera’s last activity with every file of a burst, though clients hear of the burst once', async () => {
    const who = await signUp(a.t);
    const userId = await userIdOf(a.t, who);
    const first = new Date(Date.now() - 300_000);
    const file = (at: Date) => snapshotOf('Side door', at);
    await a.t.modules.activities.processUpload((await plantUpload(a, userId, file(first))).id);
    expect((await named(who, 'Side door'))?.last_activity_date_time_utc).toBe(first.toISOString());
    const announced = () => a.events.camerasChanged.filter((e) => e.userId === userId).length;
    const before = announced();

    const second = new Date(first.getTime() + 3_000);
    const joined = await a.t.modules.activities.processUpload(
      (await plantUpload(a, userId, file(second))).id,
    );
    expect(joined).toBe('joined');
    expect((await named(who, 'Side door'))?.last_activity_date_time_utc).toBe(second.toISOString());

    // The ingest's job processes snapshots in rounds, which stamp cameras their own way.
    const third = new Date(first.getTime() + 6_000);
    const queued = await plantUpload(a, userId, file(third));
    // Processing tells the ingest when it is done with an upload; the row then says what became of it.
    const settled = recordCalls(a.t.deps.events, 'emit');
    await a.t.jobs.send('activities.process-upload', { uploadId: queued.id });
    await settled.find(
      (event, payload) =>
        event === 'upload.settled' && 'uploadId' in payload && payload.uploadId === queued.id,
    );
    settled.stop();
    expect((await uploadRow(a.t, queued.id))?.status).toBe('processed');
    expect((await named(who, 'Side door'))?.last_activity_date_time_utc).toBe(third.toISOString());
    expect(announced()).toBe(before);
  });

  it('is gone with the account: its token answers 401, nothing comes from the cache', async () => {
    const who = await signUp(a.t);
    await call('POST', '/api/users/cameras', who, { name: 'Attic' });
    expect(await listed(who)).toHaveLength(1);
    expect((await call('DELETE', '/api/users', who)).statusCode).toBe(200);
    expect((await call('GET', '/api/users/cameras', who)).statusCode).toBe(401);
  });

  it('is each user’s own', async () => {
    const one = await signUp(a.t);
    const two = await signUp(a.t);
    await call('POST', '/api/users/cameras', one, { name: 'Shed' });
    expect((await listed(one)).map((c) => c.name)).toEqual(['Shed']);
    expect(await listed(two)).toEqual([]);
  });
});
