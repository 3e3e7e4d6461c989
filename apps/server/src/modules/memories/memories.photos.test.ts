import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MESSAGES } from '@homesitter/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TEST_MEDIA_SECRET, type TestApp, type TestUser } from '../../../test/app.js';
import { canEncodeHevc, makeHeic } from '../../../test/heic.js';
import { jpegWithLocation, multipart, noisyJpeg, png, webp } from '../../../test/images.js';
import { createMediaSigner } from '../media/media.signer.js';
import type { MemoryImageEvent } from '../../platform/events.js';
import { MAX_BYTES, memoryCalls, PHOTO_LIMIT, startMemoriesApp } from './memories.test-support.js';

let t: TestApp;
let alice: TestUser;
let added: MemoryImageEvent[];
let removed: MemoryImageEvent[];
beforeAll(async () => {
  ({ t, alice, added, removed } = await startMemoriesApp());
});
afterAll(async () => t.close());

const { call, create, upload, mediaPath, fileOf } = memoryCalls(() => t);
const spoolDir = () => join(t.deps.config.DATA_DIR, 'photo-spool');

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
    // Its files are named after its id (the list's gzip then sends that string once per photo).
    expect(image.signedUrl).toContain(`/memories/${m.memory_uuid}/${image.id}.jpg?`);
    expect(image.thumbnailUrl).toContain(`/memories/${m.memory_uuid}/${image.id}_thumb.webp?`);

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
    // Each upload was received into a spool file; none is left behind, refused or not.
    expect(readdirSync(spoolDir())).toEqual([]);
  });

  it('receives photos into spool files it deletes, and clears only leftovers older than an hour at start', async () => {
    const m = await create(alice, 'people', { name: 'Spooled' });
    const res = await upload(alice, 'people', m.memory_uuid, await jpegWithLocation(640, 480));
    expect(res.statusCode, res.body).toBe(201);
    expect(readdirSync(spoolDir())).toEqual([]);

    // A crash can leave a half-received file; another instance sharing DATA_DIR may be receiving one now.
    const dataDir = mkdtempSync(join(tmpdir(), 'hs-spool-'));
    mkdirSync(join(dataDir, 'photo-spool'));
    const leftover = join(dataDir, 'photo-spool', 'crashed.part');
    const receiving = join(dataDir, 'photo-spool', 'receiving.part');
    writeFileSync(leftover, 'half a photo');
    writeFileSync(receiving, 'a photo arriving');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(leftover, twoHoursAgo, twoHoursAgo);
    const other = await createTestApp({ env: { DATA_DIR: dataDir } });
    try {
      expect(readdirSync(join(dataDir, 'photo-spool'))).toEqual(['receiving.part']);
    } finally {
      await other.close();
    }
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
