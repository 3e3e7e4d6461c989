import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CameraUploadCredentials } from '@homesitter/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIngestUploader } from '../src/bridge/ingest-uploader.js';
import {
  createUploadSpool,
  type SpoolItem,
  type UploadOutcome,
  type UploadSpool,
} from '../src/bridge/upload-spool.js';
import { createLogger } from '../src/logger.js';
import { ServerApiError, type IngestFile } from '../src/server-api/index.js';
import { tempDir, waitFor } from './support/harness.js';

const log = createLogger('silent');
const fastBackoff = { initialMs: 1, maxMs: 5 };

describe('the upload spool', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let spool: UploadSpool | undefined;
  const spoolDir = () => join(dir.path, 'spool');

  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await spool?.stop();
    spool = undefined;
    await dir.remove();
  });

  function start(upload: (item: SpoolItem) => UploadOutcome | Promise<UploadOutcome>, maxBytes = 1024 ** 3) {
    spool = createUploadSpool({
      dir: spoolDir(),
      maxBytes,
      upload: async (item) => upload(item),
      log,
      backoff: fastBackoff,
    });
    return spool.start();
  }

  it('keeps a file until the server took it, retrying while it is away', async () => {
    const outcomes: UploadOutcome[] = ['retry', 'retry', 'done'];
    const seen: SpoolItem[] = [];
    await start((item) => {
      seen.push(item);
      return outcomes.shift() ?? 'done';
    });
    await spool!.addBuffer('cam-1', 'snapshot', Buffer.from('jpeg'));
    await waitFor(() => seen.length === 3 && spool!.pending() === 0, 'three tries');
    expect(seen.map((i) => i.kind)).toEqual(['snapshot', 'snapshot', 'snapshot']);
    expect(seen[0]).toMatchObject({ cameraUuid: 'cam-1', bytes: 4 });
    expect(await readdir(spoolDir())).toEqual([]);
  });

  it('moves a clip in, and drops what the server refuses for good', async () => {
    const clip = join(dir.path, 'clip.mp4');
    await writeFile(clip, 'mp4 data');
    const seen: string[] = [];
    await start((item) => {
      seen.push(item.kind);
      return 'drop';
    });
    await spool!.addFile('cam-1', 'clip', clip);
    expect(existsSync(clip)).toBe(false);
    await waitFor(() => seen.length === 1 && spool!.pending() === 0, 'the drop');
    expect(await readdir(spoolDir())).toEqual([]);
  });

  it('resumes what an earlier run left, oldest first, and clears half-written files', async () => {
    await mkdir(spoolDir(), { recursive: true });
    await writeFile(join(spoolDir(), '1700000000002-aaaaaaaa--cam-2.mp4'), 'second');
    await writeFile(join(spoolDir(), '1700000000001-bbbbbbbb--cam-1.jpg'), 'first');
    await writeFile(join(spoolDir(), '1700000000003-cccccccc--cam-1.jpg.tmp'), 'half');
    const seen: SpoolItem[] = [];
    await start((item) => {
      seen.push(item);
      return 'done';
    });
    await waitFor(() => seen.length === 2, 'both uploads');
    expect(seen.map((i) => [i.cameraUuid, i.kind, i.createdAt.getTime()])).toEqual([
      ['cam-1', 'snapshot', 1700000000001],
      ['cam-2', 'clip', 1700000000002],
    ]);
    await waitFor(async () => (await readdir(spoolDir())).length === 0, 'an empty spool');
  });

  it('waits while signed out and goes on when woken', async () => {
    let signedIn = false;
    let uploaded = 0;
    await start(() => {
      if (!signedIn) return 'wait';
      uploaded += 1;
      return 'done';
    });
    await spool!.addBuffer('cam-1', 'snapshot', Buffer.from('a'));
    await spool!.addBuffer('cam-1', 'snapshot', Buffer.from('b'));
    expect(spool!.pending()).toBe(2);
    signedIn = true;
    spool!.wake();
    await waitFor(() => uploaded === 2, 'both uploads after the sign-in');
  });

  it('keeps within its bound by dropping the oldest files', async () => {
    await start(() => 'wait', 10);
    for (const text of ['aaaa', 'bbbb', 'cccc'])
      await spool!.addBuffer('cam-1', 'snapshot', Buffer.from(text));
    expect(spool!.pending()).toBe(2);
    const names = await readdir(spoolDir());
    expect(names).toHaveLength(2);
  });
});

describe('uploading a motion file to the ingest', () => {
  const camera = { owner_uid: 'user-1', name: 'Porch' };
  const item: SpoolItem = {
    path: '/x.jpg',
    cameraUuid: 'cam-1',
    kind: 'snapshot',
    createdAt: new Date(),
    bytes: 1,
  };
  const credentials = (password: string): CameraUploadCredentials => ({
    username: 'u',
    password,
    email_address: 'e',
    smtp_host: 'h',
    smtp_port: 1,
    ftp_host: 'h',
    ftp_port: 1,
  });

  function uploader(answers: (Error | null)[], uid: string | null = 'user-1') {
    const sent: { login: { password: string }; file: IngestFile }[] = [];
    let fetched = 0;
    const api = {
      uploadCredentials: async () => credentials(`pw-${++fetched}`),
      uploadEvent: async (login: { username: string; password: string }, file: IngestFile) => {
        sent.push({ login, file });
        const answer = answers.shift();
        if (answer) throw answer;
      },
    };
    const up = createIngestUploader({
      serverApi: api,
      cameras: { get: (id) => (id === 'cam-1' ? camera : undefined) },
      currentUid: () => uid,
      log,
    });
    return { up, sent, fetched: () => fetched };
  }
  const signal = new AbortController().signal;

  it('sends the camera name and file with the upload login, fetched once', async () => {
    const { up, sent, fetched } = uploader([null, null]);
    expect(await up.upload(item, signal)).toBe('done');
    expect(await up.upload(item, signal)).toBe('done');
    expect(fetched()).toBe(1);
    expect(sent[0]!.file).toMatchObject({
      cameraName: 'Porch',
      fileName: 'motion.jpg',
      contentType: 'image/jpeg',
    });
  });

  it('fetches the login again after a 401, once', async () => {
    const { up, sent } = uploader([new ServerApiError(401, 'auth.unauthenticated', 'no'), null]);
    expect(await up.upload(item, signal)).toBe('done');
    expect(sent.map((s) => s.login.password)).toEqual(['pw-1', 'pw-2']);
  });

  it('retries on 429 and server errors, drops other refusals, waits while signed out', async () => {
    expect(
      await uploader([new ServerApiError(429, 'rate_limited', 'slow down')]).up.upload(item, signal),
    ).toBe('retry');
    expect(await uploader([new ServerApiError(503, 'internal', 'down')]).up.upload(item, signal)).toBe(
      'retry',
    );
    expect(await uploader([new ServerApiError(0, 'unreachable', 'offline')]).up.upload(item, signal)).toBe(
      'retry',
    );
    expect(
      await uploader([new ServerApiError(413, 'payload_too_large', 'big')]).up.upload(item, signal),
    ).toBe('drop');
    expect(await uploader([], null).up.upload(item, signal)).toBe('wait');
    expect(await uploader([], 'someone-else').up.upload(item, signal)).toBe('skip');
    expect(await uploader([]).up.upload({ ...item, cameraUuid: 'gone' }, signal)).toBe('drop');
  });
});
