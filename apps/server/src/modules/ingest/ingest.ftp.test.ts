import { Readable } from 'node:stream';
import { FTPError, type Client } from 'basic-ftp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../../../test/images.js';
import {
  bytes,
  ftpClient,
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

/** The FTP reply code of a failed basic-ftp call. */
async function ftpCode(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (err) {
    if (err instanceof FTPError) return err.code;
    throw err;
  }
  throw new Error('the call succeeded');
}

describe('FTP ingest', () => {
  let h: IngestHarness;
  let login: UploadLogin;
  let userId: string;
  let other: UploadLogin;

  beforeAll(async () => {
    // 30 cameras of one login upload at once below: each session holds a passive port while it sends.
    h = await startIngestHarness({ FTP_PASV_PER_USER: '30' });
    const a = await userWithLogin(h.t);
    login = a.login;
    userId = await userIdOf(h.t, a.user);
    other = (await userWithLogin(h.t)).login;
  }, 60_000);
  afterAll(async () => h.close());

  const withClient = async (mode: 'passive' | 'active', fn: (c: Client) => Promise<void>, who = login) => {
    const client = await ftpClient(h.servers.ftpPort, who, mode);
    try {
      await fn(client);
    } finally {
      client.close();
    }
  };

  it.each(['passive', 'active'] as const)(
    'stores an upload (%s mode) as a row with its job, named after its first folder',
    async (mode) => {
      const jpeg = await smallJpeg();
      await withClient(mode, async (c) => {
        await c.ensureDir(`/Front Door ${mode}/2026/11/20`);
        const res = await c.uploadFrom(bytes(jpeg), `snap-${mode}.jpg`);
        expect(res.code).toBe(226);
        // A camera checking its file afterwards sees it with its size.
        expect(await c.size(`snap-${mode}.jpg`)).toBe(jpeg.length);
      });
      const row = (await uploadsOf(h.t, userId)).find((u) => u.original_name === `snap-${mode}.jpg`);
      expect(row).toMatchObject({
        camera_name: `Front Door ${mode}`,
        source: 'ftp',
        media_kind: 'image',
        content_type: 'image/jpeg',
        storage_key: `users/${userId}/uploads/${row?.id}.jpg`,
      });
      expect(Number(row?.size_bytes)).toBe(jpeg.length);
      expect(await hasProcessJob(h.t, row!.id)).toBe(true);
      // Until processed, the bytes are on storage under the row's key. Processing runs meanwhile and may move
      // them on, so the row is read again after the storage listing: missing bytes need a processed row.
      const stored = await storedUploads(h.t, userId);
      const now = (await uploadsOf(h.t, userId)).find((u) => u.id === row!.id);
      if (now?.status === 'pending') expect(stored).toContain(row!.storage_key);
    },
  );

  it('names a file at the root after its prefix, else "Camera"', async () => {
    await withClient('passive', async (c) => {
      await c.uploadFrom(bytes(await smallJpeg()), 'Garage_20261120_101010.jpg');
      await c.uploadFrom(bytes(await png()), 'Porch-1.png');
      await c.uploadFrom(bytes(await smallJpeg()), 'snapshot.jpg');
    });
    const rows = await uploadsOf(h.t, userId);
    const cameraOf = (name: string) => rows.find((r) => r.original_name === name)?.camera_name;
    expect(cameraOf('Garage_20261120_101010.jpg')).toBe('Garage');
    expect(cameraOf('Porch-1.png')).toBe('Porch');
    expect(cameraOf('snapshot.jpg')).toBe('Camera');
  });

  it('refuses an empty, a cut-off and a non-media file with 553 and keeps nothing', async () => {
    const before = await uploadsOf(h.t, userId);
    const storedBefore = await storedUploads(h.t, userId);
    const jpeg = await smallJpeg();
    await withClient('passive', async (c) => {
      await c.cd('/Refused');
      expect(await ftpCode(c.uploadFrom(bytes(Buffer.alloc(0)), 'empty.jpg'))).toBe(553);
      expect(await ftpCode(c.uploadFrom(bytes(jpeg.subarray(0, jpeg.length - 10)), 'cut.jpg'))).toBe(553);
      expect(await ftpCode(c.uploadFrom(bytes(Buffer.from('#!/bin/sh\necho hi\n')), 'x.jpg'))).toBe(553);
      // The session goes on: a good file after refusals is stored.
      expect((await c.uploadFrom(bytes(jpeg), 'after.jpg')).code).toBe(226);
    });
    const after = await uploadsOf(h.t, userId);
    expect(
      after.map((r) => r.original_name).filter((n) => !before.some((b) => b.original_name === n)),
    ).toEqual(['after.jpg']);
    expect(await refusedCount(h.t, userId)).toBe(3);
    const added = (await storedUploads(h.t, userId)).filter((k) => !storedBefore.includes(k));
    const afterRow = after.find((r) => r.original_name === 'after.jpg')!;
    expect(added.every((k) => k === afterRow.storage_key)).toBe(true);
  });

  it('keeps nothing of an upload whose connection breaks mid-file, and goes on serving', async () => {
    const before = await uploadsOf(h.t, userId);
    const stored = await storedUploads(h.t, userId);
    const jpeg = await smallJpeg();
    const broken = new Readable({
      read() {
        this.push(jpeg.subarray(0, 2000));
        this.destroy(new Error('camera lost power'));
      },
    });
    await withClient('passive', async (c) => {
      await expect(c.uploadFrom(broken, '/Broken/b.jpg')).rejects.toThrow();
    });
    await withClient('passive', async (c) => {
      expect((await c.uploadFrom(bytes(jpeg), '/Broken/after.jpg')).code).toBe(226);
    });
    const added = (await uploadsOf(h.t, userId)).filter((r) => !before.some((b) => b.id === r.id));
    expect(added.map((r) => r.original_name)).toEqual(['after.jpg']);
    const newKeys = (await storedUploads(h.t, userId)).filter((k) => !stored.includes(k));
    expect(newKeys.every((k) => k === added[0]!.storage_key)).toBe(true);
  });

  it('refuses a file over the size limit with 552 and keeps nothing', async () => {
    const small = await startIngestHarness({ INGEST_MAX_BYTES: '4096' });
    try {
      const { user, login: l } = await userWithLogin(small.t);
      const id = await userIdOf(small.t, user);
      const client = await ftpClient(small.servers.ftpPort, l);
      try {
        const big = Buffer.concat([await smallJpeg(), Buffer.alloc(200_000)]);
        expect(await ftpCode(client.uploadFrom(bytes(big), 'big.jpg'))).toBe(552);
      } finally {
        client.close();
      }
      expect(await uploadsOf(small.t, id)).toEqual([]);
      expect(await storedUploads(small.t, id)).toEqual([]);
    } finally {
      await small.close();
    }
  }, 60_000);

  it('refuses wrong credentials with 530', async () => {
    for (const [user, password] of [
      [login.username, 'wrong-password'],
      ['nobody', login.password],
      [login.username, other.password],
    ] as const)
      await expect(
        ftpClient(h.servers.ftpPort, { username: user, password }).then((c) => c.close()),
      ).rejects.toMatchObject({ code: 530 });
  });

  it("shows each user an empty root: no listing, download, delete or escape into another's files", async () => {
    await withClient('passive', async (c) => {
      await c.uploadFrom(bytes(await smallJpeg()), '/Mine/secret.jpg');
    });
    const mine = (await uploadsOf(h.t, userId)).find((r) => r.original_name === 'secret.jpg')!;
    await withClient(
      'passive',
      async (c) => {
        expect(await c.list('/')).toEqual([]);
        expect(await c.list('/Mine')).toEqual([]);
        await c.cd('../../../..');
        expect(await c.pwd()).toBe('/');
        await c.cd(`/../users/${userId}/uploads`);
        expect(await c.pwd()).toBe(`/users/${userId}/uploads`);
        expect(await c.list()).toEqual([]);
        const sink = new (await import('node:stream')).PassThrough();
        sink.resume();
        expect(await ftpCode(c.downloadTo(sink, `${mine.id}.jpg`))).toBeGreaterThanOrEqual(550);
        expect(await ftpCode(c.downloadTo(sink, '/Mine/secret.jpg'))).toBeGreaterThanOrEqual(550);
        expect(await ftpCode(c.remove('/Mine/secret.jpg'))).toBe(550);
        expect(await ftpCode(c.rename('/Mine/secret.jpg', '/x.jpg'))).toBe(550);
      },
      other,
    );
    // The owner's file is untouched by all that.
    expect((await uploadsOf(h.t, userId)).some((r) => r.id === mine.id)).toBe(true);
  });

  it('takes uploads from several clients at once', async () => {
    const jpeg = await smallJpeg();
    await Promise.all(
      [0, 1, 2, 3].map((i) =>
        withClient('passive', async (c) => {
          for (let n = 0; n < 3; n++)
            expect((await c.uploadFrom(bytes(jpeg), `/Parallel/${i}-${n}.jpg`)).code).toBe(226);
        }),
      ),
    );
    const rows = (await uploadsOf(h.t, userId)).filter((r) => r.camera_name === 'Parallel');
    expect(rows).toHaveLength(12);
  });

  it('takes 30 cameras behind one address signing in at once with the right login', async () => {
    const jpeg = await smallJpeg();
    const codes = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        ftpClient(h.servers.ftpPort, login)
          .then(async (c) => {
            try {
              return (await c.uploadFrom(bytes(jpeg), `/Router ${i}/x.jpg`)).code;
            } finally {
              c.close();
            }
          })
          .catch((err: unknown) => (err as { code?: number }).code ?? 0),
      ),
    );
    const accepted = codes.filter((code) => code === 226).length;
    console.info(`[faults] 30 cameras behind one address: ftp accepted ${accepted}/30`);
    expect(accepted).toBe(30);
    const rows = (await uploadsOf(h.t, userId)).filter((r) => r.camera_name.startsWith('Router '));
    expect(rows).toHaveLength(30);
  }, 60_000);

  it('refuses a login guessed at ten times, and only that one: other logins from the address still work', async () => {
    const guessed = (await userWithLogin(h.t)).login;
    const attempt = (password: string) =>
      ftpClient(h.servers.ftpPort, { ...guessed, password }).then((c) => c.close());
    for (let i = 0; i < 10; i++) await expect(attempt(`wrong-${i}`)).rejects.toMatchObject({ code: 530 });
    // Now even the right password waits for the minute to pass…
    await expect(attempt(guessed.password)).rejects.toThrow(/Too many failed logins/);
    // …while the other cameras of the same address go on uploading.
    await withClient('passive', async (c) => {
      expect((await c.uploadFrom(bytes(await smallJpeg()), '/Still/x.jpg')).code).toBe(226);
    });
  });
});
