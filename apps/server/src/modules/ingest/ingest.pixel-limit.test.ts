import type { AddressInfo } from 'node:net';
import { FTPError } from 'basic-ftp';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pixelBombPng } from '../../../test/pixel-bomb.js';
import {
  bytes,
  ftpClient,
  refusedCount,
  startIngestHarness,
  storedUploads,
  uploadsOf,
  userIdOf,
  userWithLogin,
  type IngestHarness,
  type UploadLogin,
} from './ingest.test-support.js';

describe('camera uploads above the pixel limit (a 100,000 × 100,000 1-bit PNG of a few hundred bytes)', () => {
  let h: IngestHarness;
  let login: UploadLogin;
  let userId: string;
  const bomb = pixelBombPng();

  beforeAll(async () => {
    h = await startIngestHarness();
    const a = await userWithLogin(h.t);
    login = a.login;
    userId = await userIdOf(h.t, a.user);
    await h.t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => h.close());

  it('are refused over FTP (553), email (554) and HTTP (400), each saying why, and nothing is kept', async () => {
    const ftp = await ftpClient(h.servers.ftpPort, login);
    try {
      await ftp.cd('/Bomb');
      const refusal = await ftp.uploadFrom(bytes(bomb), 'bomb.png').catch((err: unknown) => err);
      expect(refusal).toBeInstanceOf(FTPError);
      expect(refusal).toMatchObject({ code: 553, message: expect.stringMatching(/100 megapixels/) });
    } finally {
      ftp.close();
    }

    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: h.servers.smtpPort,
      secure: false,
      ignoreTLS: true,
      auth: { user: login.username, pass: login.password },
    });
    await expect(
      transport
        .sendMail({
          from: 'Gate <g@example.com>',
          to: `${login.username}@homesitter.test`,
          attachments: [{ filename: 'bomb.png', content: bomb, contentType: 'image/png' }],
        })
        .finally(() => transport.close()),
    ).rejects.toMatchObject({ responseCode: 554, response: expect.stringMatching(/100 megapixels/) });

    const { port } = h.t.app.server.address() as AddressInfo;
    const body = new FormData();
    body.append('camera_name', 'Bomb');
    body.append('file', new Blob([new Uint8Array(bomb)]), 'bomb.png');
    const res = await fetch(`http://127.0.0.1:${port}/api/ingest/events`, {
      method: 'POST',
      body,
      headers: {
        authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
      },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'bomb.png: Pictures are at most 100 megapixels',
    );

    expect(await uploadsOf(h.t, userId)).toEqual([]);
    expect(await storedUploads(h.t, userId)).toEqual([]);
    expect(await refusedCount(h.t, userId)).toBe(3);
  });
});
