import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../../../test/images.js';
import {
  hasProcessJob,
  refusedCount,
  smallJpeg,
  startIngestHarness,
  storedUploads,
  uploadsOf,
  userIdOf,
  userWithLogin,
  type IngestHarness,
  type UploadLogin,
} from './ingest.test-support.js';

describe('HTTP ingest: POST /api/ingest/events', () => {
  let h: IngestHarness;
  let login: UploadLogin;
  let userId: string;
  let url: string;

  beforeAll(async () => {
    h = await startIngestHarness({ INGEST_MAX_BYTES: '100000' });
    const a = await userWithLogin(h.t);
    login = a.login;
    userId = await userIdOf(h.t, a.user);
    await h.t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}/api/ingest/events`;
  }, 60_000);
  afterAll(async () => h.close());

  const basic = (l: UploadLogin) => `Basic ${Buffer.from(`${l.username}:${l.password}`).toString('base64')}`;

  function form(cameraName: string | undefined, files: { name: string; bytes: Buffer }[]): FormData {
    const body = new FormData();
    if (cameraName !== undefined) body.append('camera_name', cameraName);
    for (const f of files) body.append('file', new Blob([new Uint8Array(f.bytes)]), f.name);
    return body;
  }

  const post = (body: FormData, auth: string | null = basic(login)) =>
    fetch(url, { method: 'POST', body, headers: auth ? { authorization: auth } : {} });

  it('answers 202 with an upload id per file, each a row with its job, named by camera_name', async () => {
    const res = await post(
      form('  Side   Gate ', [
        { name: 'one.jpg', bytes: await smallJpeg() },
        { name: 'two.png', bytes: await png() },
      ]),
    );
    expect(res.status).toBe(202);
    const body = (await res.json()) as { success: boolean; data: { upload_ids: string[] } };
    expect(body.success).toBe(true);
    expect(body.data.upload_ids).toHaveLength(2);
    const rows = await uploadsOf(h.t, userId);
    for (const id of body.data.upload_ids) {
      const row = rows.find((r) => r.id === id);
      expect(row).toMatchObject({ camera_name: 'Side Gate', source: 'http' });
      expect(await hasProcessJob(h.t, id)).toBe(true);
    }
  });

  it('names the camera "Camera" when camera_name is missing or blank', async () => {
    const res = await post(form(undefined, [{ name: 'x.jpg', bytes: await smallJpeg() }]));
    const { data } = (await res.json()) as { data: { upload_ids: string[] } };
    expect((await uploadsOf(h.t, userId)).find((r) => r.id === data.upload_ids[0])?.camera_name).toBe(
      'Camera',
    );
  });

  it('takes 30 cameras behind one address posting at once with the right login', async () => {
    const jpeg = await smallJpeg();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post(form(`Router ${i}`, [{ name: 'x.jpg', bytes: jpeg }]))),
    );
    const accepted = answers.filter((res) => res.status === 202).length;
    console.info(`[faults] 30 cameras behind one address: http accepted ${accepted}/30`);
    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 30 }, () => 202));
  });

  it('answers 429 to a login guessed at ten times, and only to that one', async () => {
    const guessed = (await userWithLogin(h.t)).login;
    const attempt = async (password: string) =>
      (await post(form('X', [{ name: 'a.jpg', bytes: await smallJpeg() }]), basic({ ...guessed, password })))
        .status;
    for (let i = 0; i < 10; i++) expect(await attempt(`wrong-${i}`)).toBe(401);
    expect(await attempt(guessed.password)).toBe(429);
    // Another camera of the same address is not held back by it.
    expect((await post(form('Still', [{ name: 'a.jpg', bytes: await smallJpeg() }]))).status).toBe(202);
  });

  it('answers 401 with a Basic challenge without or with wrong credentials, storing nothing', async () => {
    const before = (await uploadsOf(h.t, userId)).length;
    for (const auth of [null, basic({ ...login, password: 'nope' }), `Bearer ${login.password}`]) {
      const res = await post(form('X', [{ name: 'a.jpg', bytes: await smallJpeg() }]), auth);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
      expect(((await res.json()) as { code: string }).code).toBe('auth.unauthenticated');
    }
    expect((await uploadsOf(h.t, userId)).length).toBe(before);
  });

  it('refuses bad input with a clear 400/413 and keeps nothing, not even the good files beside it', async () => {
    const before = (await uploadsOf(h.t, userId)).length;
    const stored = await storedUploads(h.t, userId);
    const refused = await refusedCount(h.t, userId);
    const jpeg = await smallJpeg();
    const cases: [FormData, number, RegExp][] = [
      [form('X', []), 400, /at least one file/],
      [form('X', [{ name: 'empty.jpg', bytes: Buffer.alloc(0) }]), 400, /empty.jpg: The file is empty/],
      [
        form('X', [
          { name: 'good.jpg', bytes: jpeg },
          { name: 'cut.jpg', bytes: jpeg.subarray(0, jpeg.length - 30) },
        ]),
        400,
        /cut.jpg: The file is incomplete/,
      ],
      [form('X', [{ name: 'page.jpg', bytes: Buffer.from('<html></html>') }]), 400, /Only JPEG, PNG/],
      [form('X', [{ name: 'big.jpg', bytes: Buffer.concat([jpeg, Buffer.alloc(200_000)]) }]), 413, /at most/],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(body);
      expect(res.status).toBe(status);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
    }
    const json = await fetch(url, {
      method: 'POST',
      headers: { authorization: basic(login), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect((await uploadsOf(h.t, userId)).length).toBe(before);
    expect((await storedUploads(h.t, userId)).filter((k) => !stored.includes(k))).toEqual([]);
    expect(await refusedCount(h.t, userId)).toBe(refused + 4);
  });
});
