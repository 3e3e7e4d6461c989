import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MESSAGES } from '@homesitter/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TEST_MEDIA_SECRET, type TestApp, type TestUser } from '../../../test/app.js';
import { canEncodeHevc, makeHeic } from '../../../test/heic.js';
import { jpegWithLocation, multipart, noisyJpeg, png, webp } from '../../../test/images.js';
import { createMediaSigner } from '../media/media.signer.js';
import type { MemoryImageEvent } from './memories.events.js';

const PHOTO_LIMIT = 3;
const MAX_BYTES = 1024 * 1024;

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
const added: MemoryImageEvent[] = [];
const removed: MemoryImageEvent[] = [];

beforeAll(async () => {
  t = await createTestApp({
    env: { MEMORY_PHOTO_LIMIT: String(PHOTO_LIMIT), MAX_IMAGE_BYTES: String(MAX_BYTES) },
  });
  t.deps.events!.on('memory.image_added', (e) => void added.push(e));
  t.deps.events!.on('memory.image_removed', (e) => void removed.push(e));
  alice = await signUp(t);
  bob = await signUp(t);
});
afterAll(async () => t.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, who: TestUser, payload?: unknown) =>
  t.app.inject({ method, url, payload: payload as object, headers: who.auth });

interface Created {
  memory_uuid: string;
  [field: string]: unknown;
}

async function create(who: TestUser, category: string, body: object): Promise<Created> {
  const res = await call('POST', `/api/users/memories/${category}`, who, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: Created }>().data;
}

async function upload(
  who: TestUser,
  category: string,
  id: string,
  data: Buffer,
  name = 'photo.jpg',
  type = 'image/jpeg',
) {
  const { payload, headers } = multipart('image', name, type, data);
  return t.app.inject({
    method: 'POST',
    url: `/api/users/memories/${category}/${id}/images`,
    payload,
    headers: { ...who.auth, ...headers },
  });
}

const mediaPath = (url: string) => new URL(url).pathname + new URL(url).search;
const fileOf = (url: string) =>
  join(t.deps.config.DATA_DIR, 'media', decodeURIComponent(new URL(url).pathname.slice('/media/'.length)));

describe('memories: create, read, update, delete', () => {
  it('creates a memory of each category and lists them under people, vehicles, animals and general', async () => {
    const person = await create(alice, 'people', { name: ' Rose ', notes: 'My neighbour' });
    expect(person).toMatchObject({
      category: 'people',
      name: 'Rose',
      notes: 'My neighbour',
      images: [],
      expiration: null,
      expires_at: null,
      property_associations: [],
    });
    expect(person.memory_uuid).toMatch(/^[0-9a-f-]{36}$/);
    await create(alice, 'vehicles', { make: 'VW', model: 'Golf', year: 2019, color: 'blue', owner: 'Rose' });
    await create(alice, 'animals', { name: 'Rex', species: 'dog' });
    await create(alice, 'general', { text: 'Parcels go behind the bin' });

    const list = await call('GET', '/api/users/memories?force=true', alice);
    expect(list.statusCode).toBe(200);
    const data = list.json().data;
    expect(data.is_amnesia_mode_enabled).toBe(false);
    expect(data.people.map((m: { name: string }) => m.name)).toContain('Rose');
    expect(data.vehicles[0]).toMatchObject({
      make: 'VW',
      model: 'Golf',
      year: 2019,
      color: 'blue',
      owner: 'Rose',
    });
    expect(data.animals[0]).toMatchObject({ name: 'Rex', species: 'dog' });
    expect(data.general[0]).toMatchObject({ category: 'other', text: 'Parcels go behind the bin' });

    const one = await call('GET', `/api/users/memories/people/${person.memory_uuid}`, alice);
    expect(one.json().data.name).toBe('Rose');
  });

  it('shows the amnesia switch of the profile in the list', async () => {
    await call('POST', '/api/users/update-amnesia-mode', alice, { is_amnesia_mode_enabled: true });
    expect((await call('GET', '/api/users/memories', alice)).json().data.is_amnesia_mode_enabled).toBe(true);
    await call('POST', '/api/users/update-amnesia-mode', alice, { is_amnesia_mode_enabled: false });
  });

  it('refuses an unknown category, a missing field, a foreign field and an unknown one with 400', async () => {
    const bad: [string, object, string][] = [
      ['cars', { name: 'x' }, 'category must be one of'],
      ['people', {}, 'name'],
      ['people', { name: '  ' }, 'name is required'],
      ['people', { name: 'A', make: 'VW' }, 'make: not a field of this category'],
      ['vehicles', {}, 'at least'],
      ['vehicles', { year: 1700 }, 'year'],
      ['other', { text: 'x', colour: 'red' }, 'colour'],
      ['people', { name: 'A', property_associations: ['not-a-uuid'] }, 'property_associations'],
    ];
    for (const [category, body, reason] of bad) {
      const res = await call('POST', `/api/users/memories/${category}`, alice, body);
      expect(res.statusCode, `${category} ${JSON.stringify(body)}`).toBe(400);
      const json = res.json();
      expect(json.message).toBe(MESSAGES.addMemoryFailed);
      expect(JSON.stringify(json.details)).toContain(reason);
    }
    expect((await call('GET', '/api/users/memories/cars', alice)).statusCode).toBe(404);
    expect((await call('GET', '/api/users/memories?force=maybe', alice)).statusCode).toBe(400);
  });

  it('edits fields in place, and answers the memory', async () => {
    const m = await create(alice, 'animals', { name: 'Tom', species: 'cat' });
    const res = await call('POST', `/api/users/memories/animals/${m.memory_uuid}`, alice, { name: 'Tommy' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Tommy', species: 'cat' });
    const bad = await call('POST', `/api/users/memories/animals/${m.memory_uuid}`, alice, { name: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(MESSAGES.updateMemoryFailed);
  });

  it('keeps a short-term memory until its expiry in the user time zone, and makes it long-term', async () => {
    const year = new Date().getUTCFullYear() + 1;
    const m = await create(alice, 'people', {
      name: 'Plumber',
      expiration: { date: `${year}-06-15`, hour: 5, minute: 30, period: 'PM' },
    });
    // The profile's time zone is Europe/Berlin (test/app.ts): 17:30 CEST is 15:30 UTC.
    expect(m.expires_at).toBe(`${year}-06-15T15:30:00.000Z`);
    expect(m.expiration).toEqual({ date: `${year}-06-15`, hour: 5, minute: 30, period: 'PM' });

    const kept = await call('POST', `/api/users/memories/people/${m.memory_uuid}`, alice, {
      expiration: null,
    });
    expect(kept.json().data).toMatchObject({ expiration: null, expires_at: null, name: 'Plumber' });

    const past = await call('POST', `/api/users/memories/people/${m.memory_uuid}`, alice, {
      expiration: { date: '2001-01-01', hour: 12, minute: 0, period: 'AM' },
    });
    expect(past.statusCode).toBe(400);
    expect(JSON.stringify(past.json().details)).toContain('future');
  });

  it('hides an expired memory at once and purges it, files included, in the background job', async () => {
    const m = await create(alice, 'people', {
      name: 'Courier',
      expiration: { date: `${new Date().getUTCFullYear() + 1}-01-01`, hour: 9, minute: 0, period: 'AM' },
    });
    const up = await upload(alice, 'people', m.memory_uuid, await jpegWithLocation());
    const file = fileOf(up.json().data.image.signedUrl);
    expect(existsSync(file)).toBe(true);
    await t.database.query(`update memories set expires_at = now() - interval '1 minute' where id = $1`, [
      m.memory_uuid,
    ]);

    const names = (await call('GET', '/api/users/memories', alice))
      .json()
      .data.people.map((p: { name: string }) => p.name);
    expect(names).not.toContain('Courier');
    expect((await call('GET', `/api/users/memories/people/${m.memory_uuid}`, alice)).statusCode).toBe(404);

    const purge = t.app.backgroundTasks.find((task) => task.name === 'memories.purge-expired')!;
    expect(await purge.run()).toBeGreaterThanOrEqual(1);
    expect(await t.database.query('select id from memories where id = $1', [m.memory_uuid])).toEqual([]);
    expect(existsSync(file)).toBe(false);
    expect(removed.some((e) => e.memoryId === m.memory_uuid)).toBe(true);
  });

  it('links memories to the user own properties only, and all of them to a new property', async () => {
    const [{ id: aliceUserId }] = (await t.database.query<{ id: string }>(
      'select id from users where email = $1',
      [alice.email],
    )) as [{ id: string }];
    const [{ id: bobUserId }] = (await t.database.query<{ id: string }>(
      'select id from users where email = $1',
      [bob.email],
    )) as [{ id: string }];
    const [home] = await t.database.query<{ id: string }>(
      `insert into sites (user_id, name) values ($1, 'Home') returning id`,
      [aliceUserId],
    );
    const [other] = await t.database.query<{ id: string }>(
      `insert into sites (user_id, name) values ($1, 'Bob') returning id`,
      [bobUserId],
    );

    const m = await create(alice, 'people', { name: 'Gardener', property_associations: [home!.id] });
    expect(m.property_associations).toEqual([home!.id]);
    const foreign = await call('POST', `/api/users/memories/people/${m.memory_uuid}`, alice, {
      property_associations: [other!.id],
    });
    expect(foreign.statusCode).toBe(400);
    const cleared = await call('POST', `/api/users/memories/people/${m.memory_uuid}`, alice, {
      property_associations: [],
    });
    expect(cleared.json().data.property_associations).toEqual([]);

    const [cabin] = await t.database.query<{ id: string }>(
      `insert into sites (user_id, name) values ($1, 'Cabin') returning id`,
      [aliceUserId],
    );
    const linked = await t.app.memories.associateAllMemories(aliceUserId, cabin!.id);
    expect(linked).toBeGreaterThan(0);
    const all = (await call('GET', '/api/users/memories', alice)).json().data;
    for (const list of [all.people, all.vehicles, all.animals, all.general])
      for (const mem of list) expect(mem.property_associations).toContain(cabin!.id);
  });

  it("answers 404 for another user's memory on every call", async () => {
    const m = await create(alice, 'people', { name: 'Private' });
    const base = `/api/users/memories/people/${m.memory_uuid}`;
    expect((await call('GET', base, bob)).statusCode).toBe(404);
    expect((await call('POST', base, bob, { name: 'Hacked' })).statusCode).toBe(404);
    expect((await call('DELETE', base, bob)).statusCode).toBe(404);
    expect((await upload(bob, 'people', m.memory_uuid, await png())).statusCode).toBe(404);
    expect((await call('GET', '/api/users/memories', bob)).json().data.people).toEqual([]);
    // …and under the wrong category too.
    expect((await call('GET', `/api/users/memories/animals/${m.memory_uuid}`, alice)).statusCode).toBe(404);
    expect((await call('GET', base, alice)).json().data.name).toBe('Private');
  });
});

describe('memory photos', () => {
  it('stores a re-encoded JPEG without its EXIF location, a thumbnail, and signed URLs that serve them', async () => {
    const m = await create(alice, 'people', { name: 'Photo person' });
    const original = await jpegWithLocation(1200, 900);
    expect((await sharp(original).metadata()).exif).toBeDefined();

    const res = await upload(alice, 'people', m.memory_uuid, original);
    expect(res.statusCode, res.body).toBe(201);
    const image = res.json().data.image;
    expect(image).toMatchObject({ width: 1200, height: 900 });
    expect(image.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(image.signedUrl).toMatch(/^http:\/\/homesitter\.test\/media\/users\/.+\.jpg\?exp=\d+&sig=/);

    const served = await t.app.inject({ method: 'GET', url: mediaPath(image.signedUrl) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toMatch(/^private, max-age=\d+, immutable$/);
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from('TestCam'))).toBe(false);

    const again = await t.app.inject({
      method: 'GET',
      url: mediaPath(image.signedUrl),
      headers: { 'if-none-match': served.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);

    const thumb = await t.app.inject({ method: 'GET', url: mediaPath(image.thumbnailUrl) });
    expect(thumb.headers['content-type']).toBe('image/webp');
    const thumbMeta = await sharp(thumb.rawPayload).metadata();
    expect(Math.max(thumbMeta.width, thumbMeta.height)).toBe(480);

    const got = (await call('GET', `/api/users/memories/people/${m.memory_uuid}`, alice)).json().data;
    expect(got.images.map((i: { id: string }) => i.id)).toEqual([image.id]);
    expect(added).toContainEqual(
      expect.objectContaining({ memoryId: m.memory_uuid, category: 'people', imageId: image.id }),
    );
  });

  it('accepts PNG and WebP, sniffed from the bytes whatever the name says', async () => {
    const m = await create(alice, 'animals', { name: 'Kitty' });
    expect(
      (await upload(alice, 'animals', m.memory_uuid, await png(), 'a.gif', 'image/gif')).statusCode,
    ).toBe(201);
    expect(
      (await upload(alice, 'animals', m.memory_uuid, await webp(), 'b.bin', 'application/octet-stream'))
        .statusCode,
    ).toBe(201);
  });

  it.runIf(canEncodeHevc())('accepts an iPhone-style HEIC photo and serves it as JPEG', async () => {
    const m = await create(alice, 'animals', { name: 'Heic' });
    const res = await upload(
      alice,
      'animals',
      m.memory_uuid,
      makeHeic(96, 64, 'blue'),
      'IMG_0001.HEIC',
      'image/heic',
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.image).toMatchObject({ width: 96, height: 64 });
    const served = await t.app.inject({ method: 'GET', url: mediaPath(res.json().data.image.signedUrl) });
    expect((await sharp(served.rawPayload).metadata()).format).toBe('jpeg');
  });

  it('refuses a text file named .jpg (400), an oversized file (413) and a request without the image (400)', async () => {
    const m = await create(alice, 'animals', { name: 'Bad files' });
    const text = await upload(
      alice,
      'animals',
      m.memory_uuid,
      Buffer.from('just some text, not a photo'),
      'x.jpg',
    );
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ code: 'memory.image_type' });
    expect(text.json().message).toMatch(/JPEG, PNG, WebP or HEIC/);

    const broken = await upload(
      alice,
      'animals',
      m.memory_uuid,
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500)]),
    );
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe('memory.image_unreadable');

    const big = await upload(alice, 'animals', m.memory_uuid, await noisyJpeg(MAX_BYTES + 10_000));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({
      code: 'memory.image_too_large',
      message: expect.stringMatching(/at most 1 MB/),
    });

    const json = await call('POST', `/api/users/memories/animals/${m.memory_uuid}/images`, alice, {
      image: 'x',
    });
    expect(json.statusCode).toBe(400);
    const wrongField = multipart('photo', 'a.png', 'image/png', await png());
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/users/memories/animals/${m.memory_uuid}/images`,
      payload: wrongField.payload,
      headers: { ...alice.auth, ...wrongField.headers },
    });
    expect(res.json().code).toBe('memory.image_missing');

    const none = (await call('GET', `/api/users/memories/animals/${m.memory_uuid}`, alice)).json().data;
    expect(none.images).toEqual([]);
  });

  it('refuses a photo beyond the limit with a 400 naming it', async () => {
    const m = await create(alice, 'vehicles', { make: 'Tesla' });
    for (let i = 0; i < PHOTO_LIMIT; i += 1)
      expect((await upload(alice, 'vehicles', m.memory_uuid, await png())).statusCode).toBe(201);
    const res = await upload(alice, 'vehicles', m.memory_uuid, await png());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'memory.photo_limit',
      message: expect.stringContaining(`at most ${PHOTO_LIMIT} photos`),
    });
  });

  it('answers 403 to a tampered or expired media URL', async () => {
    const m = await create(alice, 'people', { name: 'Signed' });
    const { signedUrl } = (await upload(alice, 'people', m.memory_uuid, await png())).json().data.image;
    const path = mediaPath(signedUrl);
    const tampered = [
      path.replace(/sig=./, (s) => (s.endsWith('A') ? 'sig=B' : 'sig=A')),
      path.replace(/exp=(\d+)/, (_s, n: string) => `exp=${Number(n) + 60}`),
      path.replace(/&sig=.*/, ''),
    ];
    for (const url of tampered) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, code: 'media.forbidden' });
    }
    const key = decodeURIComponent(new URL(signedUrl).pathname.slice('/media/'.length));
    const expired = createMediaSigner(TEST_MEDIA_SECRET, 'http://homesitter.test').url(
      key,
      Math.floor(Date.now() / 1000) - 1,
    );
    const res = await t.app.inject({ method: 'GET', url: mediaPath(expired) });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/expired/);
  });

  it('deletes a photo (row, files, event) and then the memory with the rest of its files', async () => {
    const m = await create(alice, 'people', { name: 'To delete' });
    const one = (await upload(alice, 'people', m.memory_uuid, await png())).json().data.image;
    const two = (await upload(alice, 'people', m.memory_uuid, await webp())).json().data.image;

    const del = await call('DELETE', `/api/users/memories/people/${m.memory_uuid}/images/${one.id}`, alice);
    expect(del.statusCode).toBe(200);
    expect(del.json().data.images.map((i: { id: string }) => i.id)).toEqual([two.id]);
    expect(existsSync(fileOf(one.signedUrl))).toBe(false);
    expect(existsSync(fileOf(one.thumbnailUrl))).toBe(false);
    expect(removed).toContainEqual(expect.objectContaining({ imageId: one.id }));
    const again = await call('DELETE', `/api/users/memories/people/${m.memory_uuid}/images/${one.id}`, alice);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(MESSAGES.deleteImageFailed);

    const gone = await call('DELETE', `/api/users/memories/people/${m.memory_uuid}`, alice);
    expect(gone.statusCode).toBe(200);
    expect(existsSync(fileOf(two.signedUrl))).toBe(false);
    expect((await call('GET', `/api/users/memories/people/${m.memory_uuid}`, alice)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: mediaPath(two.signedUrl) })).statusCode).toBe(404);
  });

  it('deletes every file of an account when the account is deleted', async () => {
    const carol = await signUp(t);
    const m = await create(carol, 'people', { name: 'Carol friend' });
    const { signedUrl } = (await upload(carol, 'people', m.memory_uuid, await png())).json().data.image;
    const file = fileOf(signedUrl);
    expect(existsSync(file)).toBe(true);
    expect((await call('DELETE', '/api/users', carol)).statusCode).toBe(200);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(file, '..', '..', '..'))).toBe(false);
    expect(await t.database.query('select id from memories where id = $1', [m.memory_uuid])).toEqual([]);
  });
});
