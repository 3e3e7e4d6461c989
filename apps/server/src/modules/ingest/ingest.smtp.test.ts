import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
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

describe('SMTP ingest', () => {
  let h: IngestHarness;
  let login: UploadLogin;
  let userId: string;

  beforeAll(async () => {
    h = await startIngestHarness();
    const a = await userWithLogin(h.t);
    login = a.login;
    userId = await userIdOf(h.t, a.user);
  }, 60_000);
  afterAll(async () => h.close());

  const send = (mail: Mail.Options, auth: UploadLogin = login) => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: h.servers.smtpPort,
      secure: false,
      ignoreTLS: true,
      auth: { user: auth.username, pass: auth.password },
    });
    return transport
      .sendMail({ to: `${auth.username}@homesitter.test`, ...mail })
      .finally(() => transport.close());
  };

  it('stores every image attachment as an upload named after the sender, and answers 250 after', async () => {
    const info = await send({
      from: '"Back Yard" <cam@example.com>',
      subject: 'Motion detected',
      text: 'Motion at 10:00',
      attachments: [
        { filename: 'a.jpg', content: await smallJpeg() },
        { filename: 'b.png', content: await png() },
        { filename: 'notes.txt', content: 'not media' },
      ],
    });
    expect(info.response).toMatch(/^250 .*Stored 2 uploads/);
    const rows = (await uploadsOf(h.t, userId)).filter((r) => r.camera_name === 'Back Yard');
    expect(rows.map((r) => [r.original_name, r.source, r.content_type]).sort()).toEqual([
      ['a.jpg', 'smtp', 'image/jpeg'],
      ['b.png', 'smtp', 'image/png'],
    ]);
    for (const row of rows) expect(await hasProcessJob(h.t, row.id)).toBe(true);
  });

  it('names the camera after the subject when the sender has no display name, else "Camera"', async () => {
    await send({
      from: 'cam@example.com',
      subject: '  Driveway   cam ',
      attachments: [{ filename: 'd.jpg', content: await smallJpeg() }],
    });
    await send({ from: 'cam@example.com', attachments: [{ filename: 'e.jpg', content: await smallJpeg() }] });
    const rows = await uploadsOf(h.t, userId);
    expect(rows.find((r) => r.original_name === 'd.jpg')?.camera_name).toBe('Driveway cam');
    expect(rows.find((r) => r.original_name === 'e.jpg')?.camera_name).toBe('Camera');
  });

  it('refuses a message without acceptable media with 554 and keeps nothing', async () => {
    const before = (await uploadsOf(h.t, userId)).length;
    const stored = await storedUploads(h.t, userId);
    const refused = await refusedCount(h.t, userId);
    const jpeg = await smallJpeg();
    await expect(
      send({ from: 'Gate <g@example.com>', subject: 'hi', text: 'no pictures' }),
    ).rejects.toMatchObject({
      responseCode: 554,
    });
    await expect(
      send({
        from: 'Gate <g@example.com>',
        attachments: [
          { filename: 'cut.jpg', content: jpeg.subarray(0, jpeg.length - 20), contentType: 'image/jpeg' },
        ],
      }),
    ).rejects.toMatchObject({ responseCode: 554, response: expect.stringMatching(/incomplete/) });
    expect((await uploadsOf(h.t, userId)).length).toBe(before);
    // Nothing new on storage (processing may meanwhile remove earlier uploads' files).
    expect((await storedUploads(h.t, userId)).filter((k) => !stored.includes(k))).toEqual([]);
    expect(await refusedCount(h.t, userId)).toBe(refused + 2);
  });

  it('refuses for good (554, not "send it again") a message no camera writes: MIME 2,000 deep, a 5 MB subject', async () => {
    const before = (await uploadsOf(h.t, userId)).length;
    let nested = 'Content-Type: text/plain\r\n\r\nhello\r\n';
    for (let i = 0; i < 2_000; i++) {
      nested = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${nested}--b${i}--\r\n`;
    }
    await expect(
      send({ envelope: { from: 'g@example.com', to: `${login.username}@homesitter.test` }, raw: nested }),
    ).rejects.toMatchObject({ responseCode: 554, response: expect.stringMatching(/could not be read/) });
    // Written raw: nodemailer's own header folding runs out of stack on a 5 MB subject before anything is sent.
    const jpeg = (await smallJpeg()).toString('base64');
    const hugeSubject = [
      'From: Gate <g@example.com>',
      `Subject: ${'x'.repeat(5 * 1024 * 1024)}`,
      'Content-Type: multipart/mixed; boundary="cut"',
      '',
      '--cut',
      'Content-Type: image/jpeg; name="a.jpg"',
      'Content-Disposition: attachment; filename="a.jpg"',
      'Content-Transfer-Encoding: base64',
      '',
      jpeg,
      '--cut--',
      '',
    ].join('\r\n');
    await expect(
      send({
        envelope: { from: 'g@example.com', to: `${login.username}@homesitter.test` },
        raw: hugeSubject,
      }),
    ).rejects.toMatchObject({ responseCode: 554 });
    expect((await uploadsOf(h.t, userId)).length).toBe(before);
  });

  it('refuses wrong credentials', async () => {
    await expect(
      send(
        { from: 'x@example.com', attachments: [{ filename: 'x.jpg', content: await smallJpeg() }] },
        {
          username: login.username,
          password: 'wrong',
        },
      ),
    ).rejects.toMatchObject({ responseCode: 535 });
  });

  it('takes 30 cameras behind one address sending at once with the right login', async () => {
    const jpeg = await smallJpeg();
    const sent = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        send({
          from: `"Router ${i}" <cam@example.com>`,
          attachments: [{ filename: 'x.jpg', content: jpeg }],
        }).catch((err: unknown) => ({ response: String((err as { responseCode?: number }).responseCode) })),
      ),
    );
    const accepted = sent.filter((info) => /^250/.test(info.response)).length;
    console.info(`[faults] 30 cameras behind one address: smtp accepted ${accepted}/30`);
    expect(accepted).toBe(30);
  }, 60_000);

  it('refuses a message over the size limit', async () => {
    const small = await startIngestHarness({ INGEST_MAX_BYTES: '20000' });
    try {
      const { user, login: l } = await userWithLogin(small.t);
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: small.servers.smtpPort,
        ignoreTLS: true,
        auth: { user: l.username, pass: l.password },
      });
      await expect(
        transport.sendMail({
          from: 'Big <b@example.com>',
          to: 'x@homesitter.test',
          attachments: [
            { filename: 'big.jpg', content: Buffer.concat([await smallJpeg(), Buffer.alloc(60_000)]) },
          ],
        }),
      ).rejects.toMatchObject({ responseCode: 552 });
      transport.close();
      expect(await uploadsOf(small.t, await userIdOf(small.t, user))).toEqual([]);
    } finally {
      await small.close();
    }
  }, 60_000);
});
