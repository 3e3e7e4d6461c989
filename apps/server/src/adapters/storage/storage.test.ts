import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_S3_CREDENTIALS, startFakeS3 } from '../../../test/fake-s3.js';
import { installErrorHandler } from '../../platform/http/error-handler.js';
import { registerMediaRoutes } from '../../modules/media/media.routes.js';
import { createMediaSigner } from '../../modules/media/media.signer.js';
import { createFsStorage } from './fs.storage.js';
import { createS3Storage } from './s3.storage.js';
import type { ObjectStorage } from './storage.js';

async function text(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

/** Fetches a signed URL: the fs store's through the server's media route, S3's from the bucket itself. */
type Fetcher = (url: string) => Promise<{ status: number; body: string; headers: Record<string, unknown> }>;

interface Harness {
  storage: ObjectStorage;
  /** A store whose clock is `offsetMs` away from now (to mint URLs that have already expired). */
  at(offsetMs: number): ObjectStorage;
  fetch: Fetcher;
  close(): Promise<void>;
}

async function fsHarness(): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'hs-media-'));
  const signer = createMediaSigner('test-secret', 'http://media.test');
  const app: FastifyInstance = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  const storage = createFsStorage({ root, signUrl: signer.url });
  registerMediaRoutes(app, { storage, signer });
  await app.ready();
  return {
    storage,
    at: (offsetMs) => createFsStorage({ root, signUrl: signer.url, now: () => Date.now() + offsetMs }),
    async fetch(url) {
      const res = await app.inject({ method: 'GET', url: url.replace('http://media.test', '') });
      return { status: res.statusCode, body: res.body, headers: res.headers };
    },
    close: () => app.close(),
  };
}

async function s3Harness(): Promise<Harness> {
  const s3 = await startFakeS3();
  const make = (offsetMs = 0) =>
    createS3Storage({
      bucket: 'homesitter-test',
      region: 'us-east-1',
      endpoint: s3.endpoint,
      ...FAKE_S3_CREDENTIALS,
      forcePathStyle: true,
      prefix: 'media',
      now: () => Date.now() + offsetMs,
    });
  return {
    storage: make(),
    at: make,
    async fetch(url) {
      const res = await fetch(url);
      return { status: res.status, body: await res.text(), headers: Object.fromEntries(res.headers) };
    },
    close: () => s3.close(),
  };
}

// One suite, every implementation: the filesystem and S3 stores keep the same promises.
describe.each([
  ['filesystem', fsHarness],
  ['S3-compatible', s3Harness],
])('object storage: %s', (_name, make) => {
  let h: Harness;
  beforeAll(async () => {
    h = await make();
  });
  afterAll(async () => h.close());

  it('stores, reads back, reports and deletes an object', async () => {
    await h.storage.put('users/u1/a/one.jpg', Buffer.from('hello'), 'image/jpeg');
    expect(await h.storage.exists('users/u1/a/one.jpg')).toBe(true);
    const got = await h.storage.get('users/u1/a/one.jpg');
    expect(got?.contentType).toBe('image/jpeg');
    expect(await text(got!.body)).toBe('hello');
    await h.storage.delete('users/u1/a/one.jpg');
    expect(await h.storage.exists('users/u1/a/one.jpg')).toBe(false);
    expect(await h.storage.get('users/u1/a/one.jpg')).toBeUndefined();
    await expect(h.storage.delete('users/u1/a/one.jpg')).resolves.toBeUndefined();
  });

  it('deletes a whole prefix and nothing outside it', async () => {
    await h.storage.put('users/u2/x/1.jpg', Buffer.from('1'), 'image/jpeg');
    await h.storage.put('users/u2/y/2.webp', Buffer.from('2'), 'image/webp');
    await h.storage.put('users/u22/z/3.jpg', Buffer.from('3'), 'image/jpeg');
    await h.storage.deletePrefix('users/u2');
    expect(await h.storage.exists('users/u2/x/1.jpg')).toBe(false);
    expect(await h.storage.exists('users/u2/y/2.webp')).toBe(false);
    expect(await h.storage.exists('users/u22/z/3.jpg')).toBe(true);
  });

  it('stores a local file and lists the objects under a prefix with their time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hs-putfile-'));
    const file = join(dir, 'clip.bin');
    writeFileSync(file, Buffer.alloc(300_000, 7));
    const before = Date.now() - 2_000;
    await h.storage.putFile('users/u6/uploads/a.mp4', file, 'video/mp4');
    await h.storage.put('users/u6/uploads/b.jpg', Buffer.from('b'), 'image/jpeg');
    await h.storage.put('users/u66/uploads/c.jpg', Buffer.from('c'), 'image/jpeg');
    const got = await h.storage.get('users/u6/uploads/a.mp4');
    expect(got?.size).toBe(300_000);
    const listed: { key: string; modifiedAt: Date }[] = [];
    for await (const o of h.storage.list('users/u6')) listed.push(o);
    expect(listed.map((o) => o.key).sort()).toEqual(['users/u6/uploads/a.mp4', 'users/u6/uploads/b.jpg']);
    for (const o of listed) expect(o.modifiedAt.getTime()).toBeGreaterThan(before);
    const none: unknown[] = [];
    for await (const o of h.storage.list('users/nobody')) none.push(o);
    expect(none).toEqual([]);
  });

  it('refuses keys that could escape their folder', async () => {
    await expect(h.storage.put('../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid/);
    await expect(h.storage.put('/abs.jpg', Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid/);
  });

  it('hands out signed URLs that serve the object, stable for a while', async () => {
    await h.storage.put('users/u3/p.jpg', Buffer.from('photo'), 'image/jpeg');
    const url = await h.storage.signedUrl('users/u3/p.jpg', 3600);
    expect(await h.storage.signedUrl('users/u3/p.jpg', 3600)).toBe(url);
    const res = await h.fetch(url);
    expect(res.status).toBe(200);
    expect(res.body).toBe('photo');
  });

  it('answers 403 to a tampered URL', async () => {
    await h.storage.put('users/u4/p.jpg', Buffer.from('photo'), 'image/jpeg');
    const url = await h.storage.signedUrl('users/u4/p.jpg', 3600);
    const otherKey = url.replace('users/u4/p.jpg', 'users/u3/p.jpg');
    const flipped = url.replace(
      /(sig|Signature)=(.)/,
      (_m, k: string, c: string) => `${k}=${c === 'a' ? 'b' : 'a'}`,
    );
    const longer = url.replace(
      /(exp=|X-Amz-Expires=)(\d+)/,
      (_m, k: string, n: string) => `${k}${Number(n) + 3600}`,
    );
    for (const bad of [otherKey, flipped, longer]) expect((await h.fetch(bad)).status).toBe(403);
  });

  it('answers 403 once the URL has expired', async () => {
    await h.storage.put('users/u5/p.jpg', Buffer.from('photo'), 'image/jpeg');
    const url = await h.at(-3 * 3600_000).signedUrl('users/u5/p.jpg', 3600);
    expect((await h.fetch(url)).status).toBe(403);
  });
});
