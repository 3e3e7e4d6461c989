import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'basic-ftp';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../../test/tls.js';
import {
  bytes,
  smallJpeg,
  startIngestHarness,
  uploadsOf,
  userIdOf,
  userWithLogin,
  type IngestHarness,
  type UploadLogin,
} from './ingest.test-support.js';

describe('ingest over TLS (FTP explicit TLS, SMTP STARTTLS)', () => {
  let h: IngestHarness;
  let login: UploadLogin;
  let userId: string;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hs-ingest-tls-'));
    const { cert, key } = selfSignedCertificate();
    writeFileSync(join(dir, 'cert.pem'), cert);
    writeFileSync(join(dir, 'key.pem'), key);
    const files = { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') };
    h = await startIngestHarness({
      FTP_TLS_CERT: files.cert,
      FTP_TLS_KEY: files.key,
      INGEST_SMTP_TLS_CERT: files.cert,
      INGEST_SMTP_TLS_KEY: files.key,
    });
    const a = await userWithLogin(h.t);
    login = a.login;
    userId = await userIdOf(h.t, a.user);
  }, 60_000);
  afterAll(async () => h.close());

  it('takes an FTP upload after AUTH TLS', async () => {
    const client = new Client(10_000);
    try {
      await client.access({
        host: '127.0.0.1',
        port: h.servers.ftpPort,
        user: login.username,
        password: login.password,
        secure: true,
        secureOptions: { rejectUnauthorized: false },
      });
      expect(client.ftp.socket.constructor.name).toBe('TLSSocket');
      expect((await client.uploadFrom(bytes(await smallJpeg()), '/Secure Cam/a.jpg')).code).toBe(226);
    } finally {
      client.close();
    }
    expect((await uploadsOf(h.t, userId)).some((r) => r.camera_name === 'Secure Cam')).toBe(true);
  });

  it('takes a mail after STARTTLS', async () => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: h.servers.smtpPort,
      requireTLS: true,
      tls: { rejectUnauthorized: false },
      auth: { user: login.username, pass: login.password },
    });
    try {
      const info = await transport.sendMail({
        from: '"Mail Cam" <cam@example.com>',
        to: 'x@homesitter.test',
        attachments: [{ filename: 'm.jpg', content: await smallJpeg() }],
      });
      expect(info.response).toMatch(/^250 /);
    } finally {
      transport.close();
    }
    expect((await uploadsOf(h.t, userId)).some((r) => r.camera_name === 'Mail Cam')).toBe(true);
  });
});
