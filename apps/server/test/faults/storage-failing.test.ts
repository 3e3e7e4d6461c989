import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bytes,
  ftpClient,
  smallJpeg,
  startIngestHarness,
  storedUploads,
  userIdOf,
  userWithLogin,
  type IngestHarness,
  type UploadLogin,
} from '../../src/modules/ingest/ingest.test-support.js';
import { FAKE_S3_CREDENTIALS } from '../fake-s3.js';
import { diskFull, printTally, spoolLeft, startFaultyS3, tally } from './fault-support.js';

// Storage failing under the ingest: the disk is full (the storage adapter throws ENOSPC) or S3 answers 500.
// A camera must then hear a temporary refusal (FTP 451/452, SMTP 451, HTTP 5xx) and send again; nothing it
// was told "received" may be missing, nothing may be stored twice or half (no object without its row, no
// row without its object, no spool file left).

interface Fault {
  name: string;
  env(): Record<string, string>;
  break(h: IngestHarness): void;
  heal(h: IngestHarness): void;
}

const s3 = await startFaultyS3();

const faults: Fault[] = [
  {
    name: 'local storage with the disk full (ENOSPC)',
    env: () => ({}),
    break(h) {
      // The adapter as the composition root handed it to the modules; its writes now fail like a full disk.
      const storage = h.t.deps.storage;
      const original = { put: storage.put.bind(storage), putFile: storage.putFile.bind(storage) };
      Object.assign(storage, {
        put: () => Promise.reject(diskFull('write')),
        putFile: () => Promise.reject(diskFull('copyfile')),
        heal: () => Object.assign(storage, original),
      });
    },
    heal(h) {
      (h.t.deps.storage as unknown as { heal(): void }).heal();
    },
  },
  {
    name: 'S3 answering 500',
    env: () => ({
      S3_BUCKET: 'faults',
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: FAKE_S3_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: FAKE_S3_CREDENTIALS.secretAccessKey,
    }),
    break() {
      s3.state.failing = true;
    },
    heal() {
      s3.state.failing = false;
    },
  },
];

afterAll(async () => s3.close());

describe.each(faults)('camera uploads while storage fails: $name', (fault) => {
  let h: IngestHarness;
  let login: UploadLogin;
  let userId: string;
  let httpUrl: string;
  const acked: string[] = [];
  const refused: string[] = [];
  const codes: Record<string, number[]> = { ftp: [], smtp: [], http: [] };

  beforeAll(async () => {
    h = await startIngestHarness(fault.env());
    const a = await userWithLogin(h.t);
    login = a.login;
    userId = await userIdOf(h.t, a.user);
    await h.t.app.listen({ port: 0, host: '127.0.0.1' });
    httpUrl = `http://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}/api/ingest/events`;
  }, 60_000);
  afterAll(async () => h.close());

  async function viaFtp(name: string): Promise<void> {
    const client = await ftpClient(h.servers.ftpPort, login);
    try {
      const res = await client.uploadFrom(bytes(await smallJpeg()), `/Porch/${name}`);
      codes.ftp!.push(res.code);
      if (res.code === 226) acked.push(name);
    } catch (err) {
      codes.ftp!.push((err as { code?: number }).code ?? 0);
      refused.push(name);
    } finally {
      client.close();
    }
  }

  async function viaSmtp(name: string): Promise<void> {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: h.servers.smtpPort,
      ignoreTLS: true,
      auth: { user: login.username, pass: login.password },
    });
    try {
      await transport.sendMail({
        from: '"Porch" <cam@example.com>',
        to: `${login.username}@homesitter.test`,
        attachments: [{ filename: name, content: await smallJpeg() }],
      });
      codes.smtp!.push(250);
      acked.push(name);
    } catch (err) {
      codes.smtp!.push((err as { responseCode?: number }).responseCode ?? 0);
      refused.push(name);
    } finally {
      transport.close();
    }
  }

  async function viaHttp(name: string): Promise<void> {
    const body = new FormData();
    body.append('camera_name', 'Porch');
    body.append('file', new Blob([new Uint8Array(await smallJpeg())]), name);
    const res = await fetch(httpUrl, {
      method: 'POST',
      body,
      headers: {
        authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
      },
    });
    await res.arrayBuffer();
    codes.http!.push(res.status);
    if (res.status === 202) acked.push(name);
    else refused.push(name);
  }

  async function burst(tag: string): Promise<void> {
    await Promise.all([
      ...[0, 1, 2, 3].map((i) => viaFtp(`${tag}-ftp-${i}.jpg`)),
      ...[0, 1].map((i) => viaSmtp(`${tag}-smtp-${i}.jpg`)),
      ...[0, 1].map((i) => viaHttp(`${tag}-http-${i}.jpg`)),
    ]);
  }

  it('refuses every upload with a temporary code and keeps nothing of them', async () => {
    fault.break(h);
    try {
      await burst('down');
    } finally {
      fault.heal(h);
    }
    const figures = await tally(h.t, userId, acked, refused);
    printTally(`${fault.name}, while failing (codes ${JSON.stringify(codes)})`, figures);

    expect(acked).toEqual([]);
    expect(codes.ftp!.every((c) => c === 451 || c === 452)).toBe(true);
    expect(codes.smtp!.every((c) => c === 451)).toBe(true);
    // Never acknowledged, and a server error the camera retries (not a 4xx "your file is bad").
    // The product's target is 503 with Retry-After; see the known gap below.
    expect(codes.http!.every((c) => c >= 500)).toBe(true);
    expect(figures).toMatchObject({ rows: 0, lost: 0, duplicated: 0 });
    expect(await storedUploads(h.t, userId)).toEqual([]);
    expect(spoolLeft(h.t)).toEqual([]);
  });

  it('takes the cameras’ next attempts once storage is back, each once', async () => {
    await burst('back');
    const figures = await tally(h.t, userId, acked, refused);
    printTally(`${fault.name}, after recovery`, figures);

    expect(acked).toHaveLength(8);
    expect(figures).toMatchObject({ rows: 8, lost: 0, duplicated: 0 });
    // No object lacks its row (processing moves a row's object on into its activity).
    const rows = await h.t.database.query<{ storage_key: string }>(
      'SELECT storage_key FROM uploads WHERE user_id = $1',
      [userId],
    );
    const keys = new Set(rows.map((r) => r.storage_key));
    expect((await storedUploads(h.t, userId)).filter((k) => !keys.has(k))).toEqual([]);
    expect(spoolLeft(h.t)).toEqual([]);
  });

  // Known gap (ingest.routes.ts, owned by another engineer): a storage failure reaches the generic error
  // handler and is answered 500 "internal" instead of 503 with Retry-After. Flip to `it` once fixed.
  it('answers an HTTP upload 503 while storage fails', async () => {
    const before = codes.http!.length;
    fault.break(h);
    try {
      await viaHttp('gap-http.jpg');
    } finally {
      fault.heal(h);
    }
    expect(codes.http![before]).toBe(503);
  });
});
