import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_S3_CREDENTIALS } from '../../../test/fake-s3.js';
import { startFaultyS3 } from '../../../test/faults/fault-support.js';
import { createS3Storage, isTransientS3Error } from './s3.storage.js';

// Storing a camera's file in S3 when S3 stumbles: a few passing failures (5xx, throttling, a reset
// connection) are tried again with jittered backoff, a refusal (4xx) is not, and a store that keeps failing
// still fails, so the ingest refuses the upload with a temporary code (test/faults/storage-failing.test.ts).

let s3: Awaited<ReturnType<typeof startFaultyS3>>;
const dir = mkdtempSync(join(tmpdir(), 'hs-s3-retry-'));
const file = join(dir, 'clip.jpg');
const body = Buffer.from('a camera snapshot');

beforeAll(async () => {
  s3 = await startFaultyS3();
  writeFileSync(file, body);
});
afterAll(async () => {
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
});

const storage = (credentials = FAKE_S3_CREDENTIALS) =>
  createS3Storage({
    bucket: 'retries',
    region: 'us-east-1',
    endpoint: s3.endpoint,
    ...credentials,
    retry: { retries: 3, baseDelayMs: 10 },
  });

describe('storing a file in S3', () => {
  it('succeeds after S3 answered 500 twice, storing the whole file once', async () => {
    const writes = s3.state.writes;
    s3.state.failNext = 2;
    await storage().putFile('u/1/twice.jpg', file, 'image/jpeg');
    expect(s3.state.writes - writes).toBe(3);
    expect(s3.objects.get('retries/u/1/twice.jpg')?.body.equals(body)).toBe(true);
  });

  it('gives up after its retries while S3 keeps failing, and surfaces the error', async () => {
    const writes = s3.state.writes;
    s3.state.failing = true;
    try {
      await expect(storage().putFile('u/1/never.jpg', file, 'image/jpeg')).rejects.toMatchObject({
        $metadata: { httpStatusCode: 500 },
      });
    } finally {
      s3.state.failing = false;
    }
    expect(s3.state.writes - writes).toBe(4);
    expect(s3.objects.has('retries/u/1/never.jpg')).toBe(false);
  });

  it('does not try a refusal again (403)', async () => {
    const writes = s3.state.writes;
    await expect(
      storage({ accessKeyId: 'AKIAWRONG', secretAccessKey: 'wrong' }).putFile(
        'u/1/denied.jpg',
        file,
        'image/jpeg',
      ),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    expect(s3.state.writes - writes).toBe(1);
  });
});

describe('which S3 failures pass', () => {
  it('tells 5xx, throttling and lost connections from refusals', () => {
    const answered = (status: number, name = 'Error') =>
      Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
    expect(isTransientS3Error(answered(500, 'InternalError'))).toBe(true);
    expect(isTransientS3Error(answered(503, 'SlowDown'))).toBe(true);
    expect(isTransientS3Error(answered(429))).toBe(true);
    expect(isTransientS3Error(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isTransientS3Error(answered(403, 'AccessDenied'))).toBe(false);
    expect(isTransientS3Error(answered(404, 'NoSuchBucket'))).toBe(false);
    expect(isTransientS3Error(answered(400, 'InvalidArgument'))).toBe(false);
    expect(isTransientS3Error(new Error('ENOSPC'))).toBe(false);
  });
});
