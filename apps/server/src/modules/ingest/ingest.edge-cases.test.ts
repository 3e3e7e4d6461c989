import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithLocation } from '../../../test/images.js';
import { ftpLogin, httpUpload, multipartBody, smtpSend, type Reply } from './ingest.net-client.js';
import {
  smallJpeg,
  startIngestHarness,
  uploadsOf,
  userIdOf,
  userWithLogin,
  type IngestHarness,
  type UploadLogin,
} from './ingest.test-support.js';

/**
 * Uploads a camera must get a final answer to (not "send it again", or it sends forever), and files it sends
 * again after a crash cut off its acknowledgement (one upload, not two).
 */
describe('camera ingest edge cases', () => {
  let h: IngestHarness;
  let login: UploadLogin;
  let userId: string;
  let url: string;

  beforeAll(async () => {
    h = await startIngestHarness();
    const a = await userWithLogin(h.t);
    login = a.login;
    userId = await userIdOf(h.t, a.user);
    await h.t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}/api/ingest/events`;
  }, 60_000);
  afterAll(async () => h.close());

  const rowsOf = async (camera: string) =>
    (await uploadsOf(h.t, userId)).filter((r) => r.camera_name === camera);

  const ftpStore = async (path: string, bytes: Buffer) => {
    const session = await ftpLogin({ host: '127.0.0.1', port: h.servers.ftpPort, ...login });
    try {
      return (await session.store(path, bytes, 'EPSV')).reply;
    } finally {
      session.close();
    }
  };
  const mail = async (camera: string, filename: string, bytes: Buffer): Promise<Reply> =>
    smtpSend(
      { host: '127.0.0.1', port: h.servers.smtpPort, ...login },
      {
        from: `"${camera}" <cam@camera.test>`,
        subject: 'Motion',
        attachments: [{ filename, contentType: 'image/jpeg', bytes }],
      },
    );
  const post = (camera: string, name: string, bytes: Buffer) =>
    httpUpload({ url, ...login }, multipartBody(camera, [{ name, bytes }]));

  describe('a file name with a NUL is stored under the name without it', () => {
    it('FTP STOR: 226', async () => {
      expect((await ftpStore('/Nul ftp/sn\u0000ap.jpg', await smallJpeg())).code).toBe(226);
      expect((await rowsOf('Nul ftp')).map((r) => r.original_name)).toEqual(['snap.jpg']);
    });

    it('SMTP attachment: 250', async () => {
      expect((await mail('Nul mail', 'sn\u0000ap.jpg', await smallJpeg())).code).toBe(250);
      expect((await rowsOf('Nul mail')).map((r) => r.original_name)).toEqual(['snap.jpg']);
    });

    it('HTTP multipart filename: 202', async () => {
      const res = await post('Nul http', 'sn\u0000ap.jpg', await smallJpeg());
      expect(res.status).toBe(202);
      expect((await rowsOf('Nul http')).map((r) => r.original_name)).toEqual(['snap.jpg']);
    });
  });

  it('answers a cut-off multipart body 400 and keeps nothing', async () => {
    const before = (await uploadsOf(h.t, userId)).length;
    const whole = multipartBody('Cut http', [{ name: 'a.jpg', bytes: await smallJpeg() }]);
    for (const keep of [whole.body.length - 10, Math.floor(whole.body.length / 2), 60]) {
      const res = await httpUpload({ url, ...login }, { ...whole, body: whole.body.subarray(0, keep) });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/cut off/i);
    }
    expect((await uploadsOf(h.t, userId)).length).toBe(before);
  });

  describe('a file sent again (same camera, name, size and bytes) is acknowledged as the one stored', () => {
    it('FTP: both 226, one upload; a different file of the same name is a second', async () => {
      const jpeg = await smallJpeg();
      expect((await ftpStore('/Again ftp/snap.jpg', jpeg)).code).toBe(226);
      expect((await ftpStore('/Again ftp/snap.jpg', jpeg)).code).toBe(226);
      expect(await rowsOf('Again ftp')).toHaveLength(1);
      expect((await ftpStore('/Again ftp/snap.jpg', await jpegWithLocation(200, 150))).code).toBe(226);
      expect(await rowsOf('Again ftp')).toHaveLength(2);
    });

    it('SMTP: both 250, one upload; a different file of the same name is a second', async () => {
      const jpeg = await smallJpeg();
      expect((await mail('Again mail', 'snap.jpg', jpeg)).code).toBe(250);
      expect((await mail('Again mail', 'snap.jpg', jpeg)).code).toBe(250);
      expect(await rowsOf('Again mail')).toHaveLength(1);
      expect((await mail('Again mail', 'snap.jpg', await jpegWithLocation(200, 150))).code).toBe(250);
      expect(await rowsOf('Again mail')).toHaveLength(2);
    });

    it('HTTP: both 202 with the same upload id, also when the copies arrive at once', async () => {
      const jpeg = await smallJpeg();
      const first = await post('Again http', 'snap.jpg', jpeg);
      const again = await post('Again http', 'snap.jpg', jpeg);
      expect([first.status, again.status]).toEqual([202, 202]);
      expect(again.body.data?.upload_ids).toEqual(first.body.data?.upload_ids);
      const other = await post('Again http', 'snap.jpg', await jpegWithLocation(200, 150));
      expect(other.status).toBe(202);
      expect(other.body.data?.upload_ids).not.toEqual(first.body.data?.upload_ids);
      expect(await rowsOf('Again http')).toHaveLength(2);

      const copy = await jpegWithLocation(180, 120);
      const copies = await Promise.all([0, 1, 2].map(() => post('Again at once', 'snap.jpg', copy)));
      expect(copies.map((c) => c.status)).toEqual([202, 202, 202]);
      expect(new Set(copies.map((c) => c.body.data?.upload_ids[0])).size).toBe(1);
      expect(await rowsOf('Again at once')).toHaveLength(1);
    });

    it('the same file from another camera, or under another name, is an upload of its own', async () => {
      const jpeg = await smallJpeg();
      expect((await post('Twin A', 'snap.jpg', jpeg)).status).toBe(202);
      expect((await post('Twin B', 'snap.jpg', jpeg)).status).toBe(202);
      expect((await post('Twin A', 'other.jpg', jpeg)).status).toBe(202);
      expect(await rowsOf('Twin A')).toHaveLength(2);
      expect(await rowsOf('Twin B')).toHaveLength(1);
    });
  });
});
